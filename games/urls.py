from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("hands/", views.my_hands, name="my_hands"),
    path("play/", views.play, name="play"),
    path("play/new/", views.start_game, name="start_game"),
    path("play/<int:pk>/", views.game, name="game"),
    path("play/<int:pk>/act/", views.game_act, name="game_act"),
    path("play/<int:pk>/advance/", views.game_advance, name="game_advance"),
    path("play/<int:pk>/next-hand/", views.game_next_hand, name="game_next_hand"),
    path("play/<int:pk>/hint/", views.game_hint, name="game_hint"),
]
