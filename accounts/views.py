from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render

from .forms import SettingsForm, SignUpForm
from .limits import client_address, limit
from .lockout import lockout_message


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            limit("signup", client_address(request), what="new accounts from your address")
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.username}! Your account is ready.")
            return redirect("home")
    else:
        form = SignUpForm()
    return render(request, "accounts/signup.html", {"form": form})


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset page, with limits on the e-mails: per address asking, and per
    e-mail address (whether or not an account has it, so the limit tells nothing)."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        limit(
            "password_reset_address",
            client_address(self.request),
            what="password reset e-mails asked for from your address",
        )
        limit(
            "password_reset_email",
            form.cleaned_data["email"].strip().lower(),
            what="password reset e-mails asked for this e-mail address",
        )
        return super().form_valid(form)


def locked_out(
    request: HttpRequest, response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' lockout answer (``AXES_LOCKOUT_CALLABLE``): 429 with the message and
    ``Retry-After``; the login page again for a browser, JSON for the API."""
    username = str((credentials or {}).get("username") or request.POST.get("username", ""))
    message, seconds = lockout_message(username, client_address(request))
    answer: HttpResponse
    if request.path.startswith("/api/"):
        answer = JsonResponse({"detail": message, "errors": []}, status=429)
    else:
        form = AuthenticationForm(request, initial={"username": username})
        context = {"form": form, "locked_out": message, "next": request.POST.get("next", "")}
        answer = render(request, "accounts/login.html", context, status=429)
    answer["Retry-After"] = str(seconds)
    return answer


@login_required
def settings(request: HttpRequest) -> HttpResponse:
    """The user's own settings: the time zone."""
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, f"Saved: times are now shown in {form.instance.timezone}.")
            return redirect("accounts:settings")
        return render(request, "accounts/settings.html", {"form": form}, status=400)
    return render(request, "accounts/settings.html", {"form": form})
