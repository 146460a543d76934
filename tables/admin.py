from django.contrib import admin

from .models import Table, TableEvent, TableSeat


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    raw_id_fields = ("user", "match")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "status", "host", "visibility", "ranked", "version", "created")
    list_filter = ("status", "visibility", "ranked")
    search_fields = ("code", "host__username")
    raw_id_fields = ("host", "classroom")
    readonly_fields = ("saved_hands",)
    inlines = [TableSeatInline]


@admin.register(TableEvent)
class TableEventAdmin(admin.ModelAdmin):
    list_display = ("table", "version", "what", "created")
    raw_id_fields = ("table",)
