from django.contrib import admin

from .models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["recipient", "text", "created", "read"]
    list_filter = ["read"]
    search_fields = ["recipient__username", "text"]
    raw_id_fields = ["recipient"]
