from django.contrib import admin
from django.http import HttpRequest

from .models import AnalysisJob, AnalysisResult, WorkerCheck


@admin.register(WorkerCheck)
class WorkerCheckAdmin(admin.ModelAdmin):
    list_display = ("__str__", "created", "finished_at", "hostname")
    readonly_fields = ("created", "finished_at", "hostname")


@admin.register(AnalysisJob)
class AnalysisJobAdmin(admin.ModelAdmin):
    """Jobs are made and run by the site and the workers; here they are only looked at."""

    list_display = (
        "__str__",
        "status",
        "queue",
        "progress",
        "attempts",
        "solver_version",
        "from_cache",
        "created",
        "finished_at",
        "worker",
    )
    list_filter = ("status", "queue", "solver_version", "from_cache")
    search_fields = ("=id", "record_hash")

    @admin.display(description="progress")
    def progress(self, job: AnalysisJob) -> str:
        total = "?" if job.progress_total is None else job.progress_total
        return f"{job.progress_done}/{total}"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(AnalysisResult)
class AnalysisResultAdmin(admin.ModelAdmin):
    list_display = ("__str__", "solver_version", "params_key", "seconds", "created")
    list_filter = ("solver_version",)
    search_fields = ("record_hash",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
