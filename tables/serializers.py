"""The tables' JSON shapes, for the OpenAPI schema (shared/spec/tables.md)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


class TableOptionsSerializer(serializers.Serializer):
    rules = serializers.JSONField(
        required=False, help_text="A preset name or an object of options (hand-record.md)."
    )
    target = serializers.IntegerField(required=False, help_text="5, 10 or 15.")
    bots = serializers.ChoiceField(["easy", "normal", "hard"], required=False)
    timer = serializers.ChoiceField(["normal", "relaxed", "quick", "off"], required=False)
    ranked = serializers.BooleanField(required=False)
    visibility = serializers.ChoiceField(["public", "link", "class"], required=False)
    # "class" is a Python keyword: the field is added below under its JSON name.


TableOptionsSerializer._declared_fields["class"] = serializers.IntegerField(
    required=False, allow_null=True, help_text="The class of a `class` table."
)


class ActionSerializer(serializers.Serializer):
    action = serializers.CharField(help_text="As format_action writes it: `play JH`, `pass`…")
    version = serializers.IntegerField(help_text="The table's version the action answers.")


@extend_schema_field(OpenApiTypes.OBJECT)
class SeatsField(serializers.JSONField):
    """Each seat: "empty", {"user": name} or {"bot": level}."""


class OptionsOutSerializer(serializers.Serializer):
    rules = serializers.JSONField()
    target = serializers.IntegerField()
    bots = serializers.CharField()
    timer = serializers.CharField()
    ranked = serializers.BooleanField()
    visibility = serializers.CharField()


OptionsOutSerializer._declared_fields["class"] = serializers.IntegerField(allow_null=True)


class TrickSerializer(serializers.Serializer):
    leader = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    winner = serializers.CharField(required=False)


class TableStateSerializer(serializers.Serializer):
    id = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(["open", "playing", "finished", "abandoned"])
    host = serializers.CharField(allow_null=True)
    options = OptionsOutSerializer()
    seats = SeatsField()
    you = serializers.CharField(allow_null=True)
    score = serializers.DictField(child=serializers.IntegerField())
    hand_number = serializers.IntegerField()
    dealer = serializers.CharField(allow_null=True)
    upcard = serializers.CharField(allow_null=True)
    trump = serializers.CharField(allow_null=True)
    maker = serializers.CharField(allow_null=True)
    alone = serializers.BooleanField()
    defender_alone = serializers.CharField(allow_null=True)
    auction = serializers.ListField(child=serializers.DictField())
    hand = serializers.ListField(child=serializers.CharField(), allow_null=True)
    cards_left = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    tricks = TrickSerializer(many=True)
    trick = TrickSerializer(allow_null=True)
    tricks_won = serializers.DictField(child=serializers.IntegerField())
    turn = serializers.CharField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    legal = serializers.ListField(child=serializers.CharField(), allow_null=True)
    last_hand = serializers.DictField(allow_null=True, help_text="The whole hand record.")
    places = serializers.DictField(child=serializers.IntegerField(), allow_null=True)


class TableListItemSerializer(serializers.Serializer):
    id = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    host = serializers.CharField(allow_null=True)
    options = OptionsOutSerializer()
    seats = SeatsField()


class TableListSerializer(serializers.Serializer):
    tables = TableListItemSerializer(many=True)
