from django.urls import path

from . import views

app_name = "lessons"

urlpatterns = [
    path("", views.index, name="index"),
    path("rules/", views.rules, name="rules"),
    path("<slug:slug>/", views.lesson, name="lesson"),
    path("<slug:slug>/<int:number>/answer", views.answer, name="answer"),
]
