from django.urls import path

from . import views

app_name = "classes"

urlpatterns = [
    path("", views.index, name="index"),
    path("become-teacher/", views.become_teacher, name="become_teacher"),
    path("new/", views.class_create, name="class_create"),
    path("join/", views.join, name="join"),
    path("join/<slug:code>/", views.join_code, name="join_code"),
    path("<int:pk>/", views.classroom, name="classroom"),
    path("<int:pk>/code/", views.change_code, name="change_code"),
    path("<int:pk>/rename/", views.class_rename, name="class_rename"),
    path("<int:pk>/archive/", views.class_archive, name="class_archive"),
    path("<int:pk>/unarchive/", views.class_unarchive, name="class_unarchive"),
    path("<int:pk>/students/<int:user_pk>/", views.student_detail, name="student_detail"),
    path("<int:pk>/progress/", views.class_progress, name="class_progress"),
    path("<int:pk>/students/<int:user_pk>/stats/", views.student_stats, name="student_stats"),
    path("<int:pk>/students/new/", views.students_create, name="students_create"),
    path("<int:pk>/students/<int:user_pk>/remove/", views.student_remove, name="student_remove"),
    path(
        "<int:pk>/students/<int:user_pk>/password/",
        views.student_password,
        name="student_password",
    ),
    path("<int:pk>/assign/", views.assignment_create, name="assignment_create"),
    path("sets/", views.practice_sets, name="practice_sets"),
    path("sets/new/", views.practice_set_create, name="practice_set_create"),
    path("sets/<int:pk>/", views.practice_set, name="practice_set"),
    path("sets/<int:pk>/edit/", views.practice_set_edit, name="practice_set_edit"),
    path("sets/<int:pk>/delete/", views.practice_set_delete, name="practice_set_delete"),
    path("sets/<int:pk>/items/<str:kind>/", views.item_add, name="item_add"),
    path("sets/<int:pk>/items/<int:item_pk>/delete/", views.item_delete, name="item_delete"),
    path("sets/<int:pk>/items/<int:item_pk>/move/", views.item_move, name="item_move"),
    path("assignments/<int:pk>/", views.assignment, name="assignment"),
    path("assignments/<int:pk>/edit/", views.assignment_edit, name="assignment_edit"),
    path("assignments/<int:pk>/delete/", views.assignment_delete, name="assignment_delete"),
    path("assignments/<int:pk>/grid.csv", views.assignment_csv, name="assignment_csv"),
    path("assignments/<int:pk>/start/", views.assignment_start, name="assignment_start"),
    path("assignments/<int:pk>/turn-in/", views.assignment_turn_in, name="assignment_turn_in"),
    path("assignments/<int:pk>/items/<int:item_pk>/", views.item_open, name="item_open"),
    path(
        "assignments/<int:pk>/items/<int:item_pk>/hands/<int:hand_pk>/answer/",
        views.hand_answer,
        name="hand_answer",
    ),
    path(
        "assignments/<int:pk>/students/<int:user_pk>/",
        views.submission_detail,
        name="submission_detail",
    ),
    path(
        "assignments/<int:pk>/students/<int:user_pk>/return/",
        views.submission_return,
        name="submission_return",
    ),
]
