from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("hands/", views.my_hands, name="my_hands"),
]
