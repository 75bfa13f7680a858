"""The table at one moment of a stored game, as ``GET /api/games/{id}/replay/`` answers it
for each family: the trick-taking one's (``shapes.ReplayStateSerializer``), the rummy's
after a turn and the poker's at a hand's stage and action. As in ``shapes``, the
serializers are for the schema only; each shape has keys the others lack, so an answer
matches one."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from core.openapi import enum, typed
from games.apis.reports import PokerPotSerializer, RummyFindingSerializer
from games.apis.shapes import ReplayStateSerializer
from replay.poker.hands import CATEGORY_NAMES


def _codes(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), **kwargs)


class RummyMeldSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(min_value=1, help_text="as the deal numbers its melds")
    owner = serializers.IntegerField(min_value=0, help_text="the seat that laid it")
    cards = _codes(help_text="a run's in order along it; a run's joker as X=QC")
    kind = typed(enum(("run", "set"), nullable=True), allow_null=True, help_text="null: none")


class RummyReplayStateSerializer(serializers.Serializer[Any]):
    """A rummy deal after ``turn`` of its ``turns`` (0: as dealt), with every finding of the
    game up to that moment."""

    deal = serializers.IntegerField(min_value=1)
    turn = serializers.IntegerField(min_value=0)
    turns = serializers.IntegerField(min_value=0, help_text="0 in a deal audited from the sheet")
    dealer = serializers.IntegerField(min_value=0)
    seat = serializers.IntegerField(min_value=0, allow_null=True, help_text="who played turn")
    draw = typed(enum(("stock", "discard"), nullable=True), allow_null=True)
    discard = _codes(allow_null=True, help_text="what that turn discarded")
    melds = RummyMeldSerializer(many=True)
    pile_top = serializers.CharField(allow_null=True)
    pile = serializers.IntegerField(min_value=0, help_text="cards in the discard pile")
    stock = serializers.IntegerField(min_value=0, help_text="cards in the stock")
    hands = serializers.ListField(child=_codes(), help_text="per seat; empty in a sheet deal")
    opened = serializers.ListField(child=serializers.BooleanField())
    out = serializers.IntegerField(min_value=0, allow_null=True)
    replayed = serializers.BooleanField(help_text="false for a turn after the going out")
    findings = RummyFindingSerializer(many=True)


class PokerCardSerializer(serializers.Serializer[Any]):
    card = serializers.CharField(help_text="?? where the record does not know it")
    up = serializers.BooleanField(help_text="face up on the table")


class PokerActionSerializer(serializers.Serializer[Any]):
    """A written action, as the record writes it."""

    seat = serializers.IntegerField(min_value=0)
    action = typed(enum(("fold", "check", "call", "bet", "raise", "exchange")))
    amount = serializers.IntegerField(required=False)
    cards = _codes(required=False)
    new = _codes(required=False)


class PokerSeatStateSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0)
    dealt = serializers.BooleanField(help_text="false for a seat sitting out")
    folded = serializers.IntegerField(min_value=1, allow_null=True, help_text="the stage")
    cards = PokerCardSerializer(many=True)
    stack = serializers.IntegerField()
    bet = serializers.IntegerField(help_text="in this stage (casino: its call)")
    paid = serializers.IntegerField(help_text="in this hand: antes, blinds, bets, fees")
    all_in = serializers.BooleanField()
    last = PokerActionSerializer(allow_null=True, help_text="its last action in this stage")
    category = typed(enum(CATEGORY_NAMES, nullable=True), allow_null=True)
    net = serializers.IntegerField(allow_null=True, help_text="at the hand's end")
    won = serializers.BooleanField()


class PokerReplayStateSerializer(serializers.Serializer[Any]):
    """A poker hand at a moment: after ``action`` actions of ``stage`` (0: its start), or at
    its end (both null)."""

    hand = serializers.IntegerField(min_value=1)
    stage = serializers.IntegerField(min_value=1, allow_null=True)
    action = serializers.IntegerField(min_value=0, allow_null=True)
    casino = serializers.BooleanField()
    dealer = serializers.IntegerField(min_value=0, allow_null=True, help_text="club game")
    pot = serializers.IntegerField()
    current = serializers.IntegerField(help_text="the bet to match in this stage")
    acted = PokerActionSerializer(allow_null=True, help_text="the action this moment follows")
    joker = serializers.CharField(allow_null=True, help_text="the hand's drawn joker")
    dealer_cards = PokerCardSerializer(many=True, allow_null=True, help_text="casino")
    dealer_rank = typed(enum(CATEGORY_NAMES, nullable=True), allow_null=True)
    dealer_qualifies = serializers.BooleanField(allow_null=True)
    pots = PokerPotSerializer(many=True, allow_null=True, help_text="club game, at the end")
    seats = PokerSeatStateSerializer(many=True)


#: The table at a moment of any family's game.
ANY_REPLAY_STATE = PolymorphicProxySerializer(
    component_name="AnyReplayState",
    serializers=[ReplayStateSerializer, RummyReplayStateSerializer, PokerReplayStateSerializer],
    resource_type_field_name=None,
)
