from django.contrib import admin

from .models import QuizQuestion


@admin.register(QuizQuestion)
class QuizQuestionAdmin(admin.ModelAdmin):
    list_display = ("public_id", "skill", "kind", "level", "answered_by", "correct", "created")
    list_filter = ("skill", "kind", "level", "correct")
    search_fields = ("public_id", "answered_by__username")
    raw_id_fields = ("answered_by",)
    readonly_fields = ("created",)
