from django.urls import path

from .views import comments, game, my_hands, play, replay, share, stats, upload

app_name = "games"

urlpatterns = [
    path("hands/", my_hands.my_hands, name="my_hands"),
    path("hands/stats/", stats.my_stats, name="my_stats"),
    path("hands/upload/", upload.upload, name="upload"),
    path("hands/<int:pk>/status/", my_hands.hand_status, name="hand_status"),
    path("hands/<int:pk>/retry/", my_hands.hand_retry_analysis, name="hand_retry_analysis"),
    path("hands/<int:pk>/export/<str:fmt>/", share.hand_export, name="hand_export"),
    path("hands/<int:pk>/share/", share.hand_share, name="hand_share"),
    path("matches/<int:pk>/export/egn/", share.match_export, name="match_export"),
    path("series/<int:pk>/export/emn/", share.series_export, name="series_export"),
    path("hands/<int:pk>/unshare/", share.hand_unshare, name="hand_unshare"),
    path("hands/<int:pk>/", replay.hand_review, name="hand_review"),
    path("hands/<int:pk>/review/status/", replay.hand_review_status, name="hand_review_status"),
    path("hands/<int:pk>/reanalyse/", replay.hand_reanalyse, name="hand_reanalyse"),
    path("hands/<int:pk>/review/show/", replay.hand_show_review, name="hand_show_review"),
    path("hands/<int:pk>/comments/", comments.hand_comment, name="hand_comment"),
    path(
        "hands/<int:pk>/comments/<int:comment_pk>/edit/",
        comments.hand_comment_edit,
        name="hand_comment_edit",
    ),
    path(
        "hands/<int:pk>/comments/<int:comment_pk>/delete/",
        comments.hand_comment_delete,
        name="hand_comment_delete",
    ),
    path("play/", play.play, name="play"),
    path("play/new/", play.start_game, name="start_game"),
    path("play/<int:pk>/", game.game, name="game"),
    path("play/<int:pk>/act/", game.game_act, name="game_act"),
    path("play/<int:pk>/advance/", game.game_advance, name="game_advance"),
    path("play/<int:pk>/next-hand/", game.game_next_hand, name="game_next_hand"),
    path("play/<int:pk>/hint/", game.game_hint, name="game_hint"),
]
