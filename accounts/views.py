from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from .forms import ApiTokenForm, SettingsForm, SignUpForm
from .http import SignedInRequest, vary_on_htmx
from .limits import client_address, limit
from .lockout import lockout_message
from .models import ApiToken


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


def _settings_context(request: SignedInRequest, **extra: object) -> dict[str, object]:
    return {
        "form": SettingsForm(instance=request.user),
        "token_form": ApiTokenForm(),
        "tokens": ApiToken.objects.filter(user=request.user),
        **extra,
    }


@login_required
def settings(request: SignedInRequest) -> HttpResponse:
    """The user's own settings: the time zone, and the API tokens."""
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, f"Saved: times are now shown in {form.instance.timezone}.")
            return redirect("accounts:settings")
        context = _settings_context(request, form=form)
        return render(request, "accounts/settings.html", context, status=400)
    return render(request, "accounts/settings.html", _settings_context(request))


def _tokens_response(request: SignedInRequest, status: int = 200, **extra: object) -> HttpResponse:
    template = "accounts/settings.html#api_tokens" if request.htmx else "accounts/settings.html"
    return render(request, template, _settings_context(request, **extra), status=status)


@vary_on_htmx
@never_cache  # the page shows the new key: no cache may keep it
@require_POST
@login_required
def token_create(request: SignedInRequest) -> HttpResponse:
    """Make an API token and show its key, this once (only its hash is kept)."""
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _tokens_response(request, status=400, token_form=form)
    token, key = ApiToken.objects.issue(request.user, form.cleaned_data["name"])
    return _tokens_response(request, new_token=token, new_key=key)


@vary_on_htmx
@require_POST
@login_required
def token_revoke(request: SignedInRequest, pk: int) -> HttpResponse:
    """Revoke one of the user's API tokens: programs using it get 401 from now on."""
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    token.delete()
    if request.htmx:
        return _tokens_response(request, revoked=token.name)
    messages.success(request, f"Revoked the API token “{token.name}”.")
    return redirect(f"{reverse('accounts:settings')}#api-tokens")
