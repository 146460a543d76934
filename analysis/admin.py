from django.contrib import admin

from .models import WorkerCheck


@admin.register(WorkerCheck)
class WorkerCheckAdmin(admin.ModelAdmin):
    list_display = ("__str__", "created", "finished_at", "hostname")
    readonly_fields = ("created", "finished_at", "hostname")
