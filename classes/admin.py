from django.contrib import admin

from .models import Assignment, Classroom, HandAnswer, PracticeItem, PracticeSet, Submission


class PracticeItemInline(admin.TabularInline):
    model = PracticeItem
    extra = 0


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ["name", "teacher", "join_code", "created", "archived_at"]
    search_fields = ["name", "teacher__username"]


@admin.register(PracticeSet)
class PracticeSetAdmin(admin.ModelAdmin):
    list_display = ["title", "teacher", "created"]
    inlines = [PracticeItemInline]


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ["practice_set", "classroom", "start_at", "due_at"]


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ["assignment", "student", "state", "attempt", "score"]
    list_filter = ["state"]


admin.site.register(HandAnswer)
