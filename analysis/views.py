from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.http import HtmxRequest, SignedInRequest, vary_on_htmx

from . import tasks
from .models import WorkerCheck

RECENT_CHECKS = 10


def _require_staff(request: HttpRequest) -> None:
    if not request.user.is_staff:
        raise PermissionDenied("Only staff can check the workers.")


def _render_checks(request: HtmxRequest) -> HttpResponse:
    checks = list(WorkerCheck.objects.all()[:RECENT_CHECKS])
    context = {"checks": checks, "waiting": any(not check.is_finished for check in checks)}
    template = "analysis/worker_checks.html"
    if request.htmx:
        template += "#checks"
    return render(request, template, context)


@vary_on_htmx
@login_required
def worker_checks(request: SignedInRequest) -> HttpResponse:
    """Staff page: recent round trips to the Celery workers."""
    _require_staff(request)
    return _render_checks(request)


@vary_on_htmx
@require_POST
@login_required
def ping_worker(request: SignedInRequest) -> HttpResponse:
    _require_staff(request)
    check = WorkerCheck.objects.create()
    tasks.ping_worker.delay_on_commit(check.pk)
    if request.htmx:
        return _render_checks(request)
    return redirect("analysis:worker_checks")
