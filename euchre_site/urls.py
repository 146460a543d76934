from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("learn/", include("lessons.urls")),
    path("", include("games.urls")),
    path("analysis/", include("analysis.urls")),
    path("classes/", include("classes.urls")),
    path("tables/", include("tables.urls")),
    path("accounts/", include("accounts.urls")),
    path("", include("ratings.urls")),
    path("notifications/", include("notifications.urls")),
    path("api/v1/", include("euchre_site.api_urls")),
    path("admin/", admin.site.urls),
]
