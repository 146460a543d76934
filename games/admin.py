from django.contrib import admin

from .models import Hand


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("__str__", "owner", "rules_preset", "created")
    list_filter = ("rules_preset",)
    search_fields = ("title", "owner__username")
    raw_id_fields = ("owner",)
    readonly_fields = ("created",)
