from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = (*BaseUserAdmin.list_display, "is_teacher")
    list_filter = (*BaseUserAdmin.list_filter, "is_teacher")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Euchre School", {"fields": ("is_teacher", "timezone")}),
    )
