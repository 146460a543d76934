"""The shapes of the classes' API (classes/api.py), as the schema describes them."""

from __future__ import annotations

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers


class ClassroomSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=["teacher", "student"])
    teacher = serializers.CharField(help_text="The teacher's username.")
    join_code = serializers.CharField(required=False, help_text="For the teacher only.")
    students = serializers.IntegerField(required=False, help_text="For the teacher only.")


class MyClassesSerializer(serializers.Serializer):
    teaching = ClassroomSerializer(many=True)
    attending = ClassroomSerializer(many=True)


class GridItemSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    title = serializers.CharField()


class GridCellSerializer(serializers.Serializer):
    item = serializers.IntegerField()
    done = serializers.BooleanField()
    score = serializers.IntegerField(allow_null=True, help_text="A percentage.")
    seconds = serializers.IntegerField(allow_null=True)
    finished_at = serializers.CharField(allow_null=True, help_text="ISO 8601.")


class GridStudentSerializer(serializers.Serializer):
    username = serializers.CharField()
    state = serializers.CharField()
    attempt = serializers.IntegerField()
    score = serializers.IntegerField(allow_null=True, help_text="A percentage.")
    late = serializers.BooleanField()
    seconds = serializers.IntegerField()
    items = GridCellSerializer(many=True)


# ``class`` is a keyword, so this one is built from a dict of fields.
GridSerializer = inline_serializer(
    "AssignmentGrid",
    {
        "id": serializers.IntegerField(),
        "title": serializers.CharField(),
        "class": serializers.IntegerField(help_text="The class's id."),
        "due_at": serializers.DateTimeField(allow_null=True),
        "pass_mark": serializers.IntegerField(help_text="A percentage."),
        "items": GridItemSerializer(many=True),
        "students": GridStudentSerializer(many=True),
    },
)
