from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    # Django's columns written out: the stubs type the inherited list per instance.
    list_display = ("username", "email", "first_name", "last_name", "is_staff", "is_teacher")
    list_filter = (*BaseUserAdmin.list_filter, "is_teacher")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Euchre School", {"fields": ("is_teacher", "timezone")}),
    )
