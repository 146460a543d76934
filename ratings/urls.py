from django.urls import path

from . import views

app_name = "ratings"

urlpatterns = [
    path("ladder/", views.ladder, name="ladder"),
    path("players/<str:username>/", views.profile, name="profile"),
]
