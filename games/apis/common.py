"""The output shapes of games that several views return, and numbers for JSON."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.urls import reverse
from rest_framework import serializers

from games.models import FAMILIES, Game


def number(value: Decimal) -> int | float:
    """A stored decimal score as the report writes it: 5, or 7.5."""
    return int(value) if value == value.to_integral_value() else float(value)


class SeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    player_id = serializers.IntegerField()
    total = serializers.SerializerMethodField()
    place = serializers.IntegerField()
    winner = serializers.BooleanField()

    def get_total(self, seat: Any) -> float:
        return number(seat.total)


class GameSummarySerializer(serializers.Serializer[Any]):
    """A game as lists show it: what it was, how it was judged, who sat where."""

    id = serializers.IntegerField()
    url = serializers.SerializerMethodField()
    family = serializers.ChoiceField(
        choices=FAMILIES,
        help_text="whose rules: tricks (raspis/1), rummy (raspis-rummy/1), poker (raspis-poker/1)",
    )
    ruleset = serializers.CharField(source="ruleset_preset")
    ruleset_name = serializers.CharField()
    played_at = serializers.DateTimeField(allow_null=True)
    source = serializers.CharField()  # type: ignore[assignment]
    external_id = serializers.CharField()
    visibility = serializers.CharField()
    verdict = serializers.CharField()
    audit = serializers.CharField()
    status = serializers.CharField()
    players_count = serializers.IntegerField()
    deals_count = serializers.IntegerField()
    seats = SeatSerializer(many=True, source="seats.all")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_url(self, game: Game) -> str:
        return reverse("game-detail", args=[game.pk])
