from django.urls import path

from . import review_views, views

app_name = "games"

urlpatterns = [
    path("hands/", views.my_hands, name="my_hands"),
    path("hands/upload/", views.upload, name="upload"),
    path("hands/<int:pk>/status/", views.hand_status, name="hand_status"),
    path("hands/<int:pk>/retry/", views.hand_retry_analysis, name="hand_retry_analysis"),
    path("hands/<int:pk>/export/<str:fmt>/", views.hand_export, name="hand_export"),
    path("hands/<int:pk>/share/", views.hand_share, name="hand_share"),
    path("matches/<int:pk>/export/egn/", views.match_export, name="match_export"),
    path("hands/<int:pk>/unshare/", views.hand_unshare, name="hand_unshare"),
    path("hands/<int:pk>/", review_views.hand_review, name="hand_review"),
    path(
        "hands/<int:pk>/review/status/", review_views.hand_review_status, name="hand_review_status"
    ),
    path("hands/<int:pk>/reanalyse/", review_views.hand_reanalyse, name="hand_reanalyse"),
    path("hands/<int:pk>/comments/", review_views.hand_comment, name="hand_comment"),
    path(
        "hands/<int:pk>/comments/<int:comment_pk>/edit/",
        review_views.hand_comment_edit,
        name="hand_comment_edit",
    ),
    path(
        "hands/<int:pk>/comments/<int:comment_pk>/delete/",
        review_views.hand_comment_delete,
        name="hand_comment_delete",
    ),
    path("play/", views.play, name="play"),
    path("play/new/", views.start_game, name="start_game"),
    path("play/<int:pk>/", views.game, name="game"),
    path("play/<int:pk>/act/", views.game_act, name="game_act"),
    path("play/<int:pk>/advance/", views.game_advance, name="game_advance"),
    path("play/<int:pk>/next-hand/", views.game_next_hand, name="game_next_hand"),
    path("play/<int:pk>/hint/", views.game_hint, name="game_hint"),
]
