from django.contrib import admin
from django.http import HttpRequest

from .models import GamePlay, Hand


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("__str__", "owner", "rules_preset", "created")
    list_filter = ("rules_preset",)
    search_fields = ("title", "owner__username")
    raw_id_fields = ("owner",)
    readonly_fields = ("record", "record_hash", "created")

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Hands come in through Hand.objects.create_from_record, which checks the
        # record and queues its analysis.
        return False


@admin.register(GamePlay)
class GamePlayAdmin(admin.ModelAdmin):
    list_display = ("__str__", "owner", "status", "target", "scores", "updated")
    list_filter = ("status", "partner_level", "opponents_level")
    search_fields = ("owner__username",)
    raw_id_fields = ("owner", "saved_hands")
    readonly_fields = ("rules", "seed", "hands", "scores", "created", "updated")

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A game is started from the Play page, and only replaying its actions is valid.
        return False
