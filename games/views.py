from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .models import Hand

HANDS_PER_PAGE = 25


@login_required
def my_hands(request: HttpRequest) -> HttpResponse:
    hands = Hand.objects.owned_by(request.user)
    page = Paginator(hands, HANDS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "games/my_hands.html", {"page": page})
