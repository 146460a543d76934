"""The classes' part of the JSON API, included by euchre_site/api_urls.py at /api/v1/classes/."""

from django.urls import path

from . import api

urlpatterns = [
    path("", api.my_classes, name="classes"),
    path("assignments/<int:pk>/grid", api.grid, name="classes_assignment_grid"),
]
