from django.urls import path

from . import views

app_name = "analysis"

urlpatterns = [
    path("worker/", views.worker_checks, name="worker_checks"),
    path("worker/ping/", views.ping_worker, name="ping_worker"),
]
