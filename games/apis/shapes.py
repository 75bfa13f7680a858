"""The engine's answers as the OpenAPI schema states them: the report (docs/format.md, "The
report"), its deals and resolved ruleset, and the table at one moment of a replay.

The views answer these as the engine builds them, dicts straight to JSON: the serializers
here are for the schema only, so they never slow an answer down. Unlike a finding, whose keys
docs/format.md fixes, these objects may gain keys: the schema lists every key, and allows more.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from core.openapi import enum, typed
from games.apis.findings import ReportFindingSerializer
from replay import PRESETS, Verdict
from replay.cards import SUITS
from replay.tricks.rulesets import DEFAULTS, FORMULAS, KINDS, VALIDATORS

#: A score: an integer when whole, else a decimal (docs/format.md, "Numbers").
SCORE = {"type": "number"}
AUDITS = ("full", "sheet", "mixed")


def _scores(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=typed(SCORE, serializers.FloatField), **kwargs)


def _seats(**kwargs: Any) -> serializers.ListField:
    """One integer per seat, in seat order."""
    return serializers.ListField(child=serializers.IntegerField(), **kwargs)


def _trump() -> Any:
    return typed(
        enum(SUITS, nullable=True),
        allow_null=True,
        help_text="null for no trump, and always under rotating trumps",
    )


def _option(name: str, default: Any, *, required: bool) -> serializers.Field[Any, Any, Any, Any]:
    """An option of RULES §9 typed as its default is, described by what the engine accepts."""
    words = VALIDATORS[name][1]
    kw: dict[str, Any] = {"required": required}
    if words not in ("true or false", "a number"):  # what the type says already
        kw["help_text"] = words
    if name == "schedule":
        pair = {
            "type": "array",
            "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            "minItems": 2,
            "maxItems": 2,
        }
        schedule = {"anyOf": [{"type": "string"}, {"type": "array", "items": pair}]}
        return typed(schedule, serializers.JSONField, **kw)
    if name in FORMULAS:
        return serializers.CharField(allow_null=True, **kw)
    if name == "teams":
        seats = {"type": "array", "items": {"type": "integer", "minimum": 0}}
        teams = {"type": "array", "items": seats, "nullable": True}
        return typed(teams, serializers.JSONField, allow_null=True, **kw)
    if default is None:
        return typed(SCORE, serializers.FloatField, allow_null=True, **kw)
    if isinstance(default, bool):
        return serializers.BooleanField(**kw)
    if isinstance(default, int | float):
        return typed(SCORE, serializers.FloatField, **kw)
    if isinstance(default, list):
        return serializers.ListField(child=serializers.CharField(), **kw)
    if isinstance(default, dict):
        return serializers.DictField(child=typed(SCORE, serializers.FloatField), **kw)
    return serializers.CharField(**kw)


def _options(name: str, words: str, *, required: bool) -> type[serializers.Serializer[Any]]:
    fields = {o: _option(o, d, required=required) for o, d in DEFAULTS.items()}
    return type(name, (serializers.Serializer,), {"__doc__": words, **fields})


RulesetOptionsSerializer = _options(
    "RulesetOptionsSerializer", "Every option of RULES §9, resolved.", required=True
)
RulesetOverridesSerializer = _options(
    "RulesetOverridesSerializer", "Options of RULES §9 set over a preset's.", required=False
)


class ReportRulesetSerializer(serializers.Serializer[Any]):
    """The ruleset a report was judged by: its preset and every option, resolved."""

    preset = typed(enum(PRESETS))
    options = RulesetOptionsSerializer()


class PresetSerializer(ReportRulesetSerializer):
    """A preset of RULES §8 with every option."""

    name = serializers.CharField(help_text="the preset's name: the same as preset")


class ReportTeamDealSerializer(serializers.Serializer[Any]):
    """One team's deal: its bids and tricks added up, and the score each of its seats got."""

    bid = serializers.IntegerField(allow_null=True, help_text="null in a deal without bidding")
    taken = serializers.IntegerField(min_value=0)
    score = typed(SCORE, serializers.FloatField)


class ReportTeamSerializer(serializers.Serializer[Any]):
    """A team's standing: its seats, their players, its total and its place (1, 1, 3)."""

    seats = _seats()
    players = serializers.ListField(child=serializers.CharField())
    total = typed(SCORE, serializers.FloatField)
    place = serializers.IntegerField(min_value=1)


class ReportDealSerializer(serializers.Serializer[Any]):
    """One deal as recomputed from the play (or, in a sheet deal, from the claimed taken)."""

    number = serializers.IntegerField(min_value=1)
    dealer = serializers.IntegerField(min_value=0)
    trump = _trump()
    bids = _seats(allow_null=True, help_text="null in a deal without bidding; a missing bid is 0")
    taken = _seats()
    scores = _scores()
    running = _scores()
    teams = ReportTeamDealSerializer(
        many=True, required=False, help_text="only under the option teams: each team's deal"
    )


class ReportSerializer(serializers.Serializer[Any]):
    """The verification report of a record (docs/format.md, "The report")."""

    verdict = typed(enum(Verdict))
    audit = typed(enum(AUDITS))
    ruleset = ReportRulesetSerializer(allow_null=True, help_text="null when it cannot be read")
    findings = ReportFindingSerializer(many=True)
    deals = ReportDealSerializer(many=True)
    totals = _scores(allow_null=True, help_text="the last running totals; null when malformed")
    winners = _seats(help_text="every seat with the highest total")
    teams = ReportTeamSerializer(
        many=True,
        required=False,
        allow_null=True,
        help_text="only under the option teams: the standings by team; null when malformed",
    )


class TrickPlaySerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0)
    player = serializers.CharField()
    play = serializers.CharField(help_text="the play in compact notation, e.g. QD or X1+")


class ReplayStateSerializer(serializers.Serializer[Any]):
    """The table at one moment of a game: after ``play`` plays of ``trick`` of ``deal``, the
    findings of the deal up to that trick, and the verdict of the whole record."""

    deal = serializers.IntegerField(min_value=1)
    trick = serializers.IntegerField(min_value=1, allow_null=True, help_text="null in a sheet")
    play = serializers.IntegerField(
        min_value=0, allow_null=True, help_text="null: the trick is complete"
    )
    dealer = serializers.IntegerField(min_value=0)
    kind = typed(enum(KINDS))
    cards = serializers.IntegerField(min_value=1)
    trump = _trump()
    bids = _seats(allow_null=True, help_text="null in a deal without bidding")
    leader = serializers.IntegerField(min_value=0, allow_null=True, help_text="of the trick")
    hands = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        allow_null=True,
        help_text="each seat's cards not played yet; null when the record does not say",
    )
    trick_so_far = TrickPlaySerializer(many=True)
    taken = _seats()
    scores = _scores(allow_null=True, help_text="null until the deal is complete")
    running = _scores()
    findings = ReportFindingSerializer(many=True)
    verdict = typed(enum(Verdict))
