"""Pages that belong to the site as a whole rather than to one app."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import User

from .home import home_for


def home(request: HttpRequest) -> HttpResponse:
    """The visitor's introduction to the site; a signed-in person's to-do and last games
    (a teacher's classes and the work waiting for them), where sign-in lands."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        return render(request, "home.html")
    return render(request, "home.html", {"home": home_for(user)})
