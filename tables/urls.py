"""The live tables' pages, under /tables/ (the JSON API is under /api/v1/tables/)."""

from django.urls import path

from . import views

app_name = "tables"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.open_table, name="open_table"),
    path("class/<int:pk>/", views.class_tables, name="class_tables"),
    path("<str:code>/", views.table_page, name="table"),
    path("<str:code>/fragment/", views.table_fragment, name="fragment"),
    path("<str:code>/seats/<str:seat>/sit/", views.sit, name="sit"),
    path("<str:code>/seats/<str:seat>/leave/", views.leave, name="leave"),
    path("<str:code>/seats/<str:seat>/bot/", views.add_bot, name="add_bot"),
    path("<str:code>/start/", views.start, name="start"),
    path("<str:code>/actions/", views.act, name="act"),
]
