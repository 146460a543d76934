"""The JSON API, version 1: mounted at /api/v1/ and kept stable."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import api as accounts_api
from euchre_site.api import not_found
from games import api as games_api
from lessons import api as lessons_api

app_name = "api"

urlpatterns = [
    path("me/", accounts_api.me, name="me"),
    path("hands/", games_api.hands, name="hands"),
    path("hands/<int:hand_id>/", games_api.hand, name="hand"),
    path("hands/<int:hand_id>/analysis", games_api.hand_analysis, name="hand_analysis"),
    path("quiz/skills", lessons_api.quiz_skills, name="quiz_skills"),
    path("quiz/next", lessons_api.quiz_next, name="quiz_next"),
    path("quiz/<slug:question_id>/answer", lessons_api.quiz_answer, name="quiz_answer"),
    path("lessons/", lessons_api.lessons, name="lessons"),
    path("lessons/<slug:slug>/", lessons_api.lesson, name="lesson"),
    path(
        "lessons/<slug:slug>/steps/<int:number>/answer",
        lessons_api.lesson_answer,
        name="lesson_answer",
    ),
    path("progress/", lessons_api.progress, name="progress"),
    path("classes/", include("classes.api_urls")),
    path("tables/", include("tables.api_urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    # Last: whatever the patterns above do not name.
    re_path(r"^(?P<path>[\s\S]*)$", not_found, name="not_found"),
]
