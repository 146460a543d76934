from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.http import HttpRequest

from .models import ApiToken, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    # Django's columns written out: the stubs type the inherited list per instance.
    list_display = ("username", "email", "first_name", "last_name", "is_staff", "is_teacher")
    list_filter = (*BaseUserAdmin.list_filter, "is_teacher")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Euchre School", {"fields": ("is_teacher", "timezone")}),
    )


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens to look at and revoke (delete); they are made by their user or by
    ``manage.py api_token``, since only then can the key be shown."""

    list_display = ("name", "user", "created", "last_used")
    search_fields = ("name", "user__username")
    readonly_fields = ("user", "name", "created", "last_used")
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
