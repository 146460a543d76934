"""Login lockouts (django-axes): how long one lasts, and the e-mail that tells the owner.

Ten failed logins for one account from one address lock that pair out (settings,
``AXES_*``); the same account from anywhere else still logs in.
"""

from __future__ import annotations

import math
from typing import Any

from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.core.mail import send_mail
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from .limits import duration
from .models import User


def lockout_seconds(username: str, address: str) -> int:
    """Seconds until the lockout of ``username`` from ``address`` ends: it lasts the cool-off
    time from the last failure counted (a try during the lockout is not counted)."""
    cool_off = get_cool_off()
    assert cool_off is not None, "AXES_COOLOFF_TIME is set in settings"
    attempt = (
        AccessAttempt.objects.filter(username=username, ip_address=address)
        .order_by("-attempt_time")
        .first()
    )
    if attempt is None:
        return int(cool_off.total_seconds())
    left = (attempt.attempt_time + cool_off - timezone.now()).total_seconds()
    return max(1, math.ceil(left))


def lockout_message(username: str, address: str) -> tuple[str, int]:
    """The lockout's message for the person at the login form, and its Retry-After."""
    seconds = lockout_seconds(username, address)
    message = (
        f"Too many failed logins: after {settings.AXES_FAILURE_LIMIT} wrong passwords, "
        f"logins to this account from your address are paused. Try again in "
        f"{duration(seconds)}, or reset your password if you have forgotten it."
    )
    return message, seconds


def tell_owner(
    sender: object, request: HttpRequest, username: str, ip_address: str, **kwargs: Any
) -> None:
    """axes' ``user_locked_out``: e-mail the account's owner, once a lockout (axes sends the
    signal again at each try during it)."""
    user = User.objects.filter(username=username).exclude(email="").first()
    if user is None:
        return
    cool_off = get_cool_off()
    timeout = int(cool_off.total_seconds()) if cool_off else 900
    if not cache.add(f"lockout-mail:{user.pk}:{ip_address}", 1, timeout=timeout):
        return
    context = {
        "user": user,
        "address": ip_address,
        "failures": settings.AXES_FAILURE_LIMIT,
        "minutes": timeout // 60,
        "reset_url": request.build_absolute_uri(reverse("accounts:password_reset")),
    }
    send_mail(
        "Euchre School: logins to your account were paused",
        render_to_string("accounts/lockout_email.txt", context),
        None,
        [user.email],
    )
