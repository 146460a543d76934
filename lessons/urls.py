from django.urls import path

from . import views

app_name = "lessons"

urlpatterns = [
    path("", views.index, name="index"),
    path("rules/", views.rules, name="rules"),
    path("practice/", views.practice, name="practice"),
    path("practice/review/", views.practice_review, name="practice_review"),
    path("practice/mistakes/", views.practice_mistakes, name="practice_mistakes"),
    path("progress/", views.progress, name="progress"),
    path("practice/<slug:skill>/", views.practice_question, name="practice_question"),
    path("practice/q/<slug:public_id>/answer", views.practice_answer, name="practice_answer"),
    path("<slug:slug>/", views.lesson, name="lesson"),
    path("<slug:slug>/<int:number>/answer", views.answer, name="answer"),
]
