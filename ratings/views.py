"""The ladder and a person's rating page; ranked games are public to signed-in people."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from accounts.models import User

from .models import Rating, RatingChange

PER_PAGE = 50
HISTORY = 50


@login_required
def ladder(request: HttpRequest) -> HttpResponse:
    ratings = Rating.objects.filter(games__gt=0).select_related("user")
    page = Paginator(ratings, PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/ladder.html", {"page": page, "start": page.start_index()})


@login_required
def profile(request: HttpRequest, username: str) -> HttpResponse:
    person = get_object_or_404(User, username=username)
    rating = Rating.objects.filter(user=person).first()
    changes = list(RatingChange.objects.filter(user=person).select_related("table")[:HISTORY])
    return render(
        request,
        "ratings/profile.html",
        {"person": person, "rating": rating, "changes": changes},
    )
