"""The tables' part of the JSON API, included by euchre_site/api_urls.py at /api/v1/tables/."""

from django.urls import path

from . import api, events

urlpatterns = [
    path("", api.tables, name="tables"),
    path("<str:code>", api.table, name="table"),
    path("<str:code>/seats/<str:seat>", api.seat, name="table_seat"),
    path("<str:code>/seats/<str:seat>/bot", api.seat_bot, name="table_seat_bot"),
    path("<str:code>/start", api.start, name="table_start"),
    path("<str:code>/actions", api.actions, name="table_actions"),
    path("<str:code>/events", events.table_events, name="table_events"),
]
