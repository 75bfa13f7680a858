"""The reports of the three game families as the OpenAPI schema states them: ``/api/verify/``
answers the report of the record's family (``replay.formats``), so its answer is one of
the trick-taking report (``shapes.ReportSerializer``), the rummy's (RUMMY-FORMAT, "The
report") and the poker's (POKER-FORMAT, "The report").

The three never match one schema at once: each finding is closed and has its own places
(``trick``/``play``, ``turn``/``action``, ``hand``/``stage``/``action``), a malformed report
has a finding, and a replayed one has deals (or hands) of its own keys. As in ``shapes``, the
serializers are for the schema only, and the objects but findings may gain keys.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from core.openapi import FindingSerializer, enum, typed
from games.apis.findings import report_finding
from games.apis.shapes import AUDITS, SCORE, ReportSerializer
from replay import Verdict
from replay.poker.findings import PokerCode
from replay.poker.hands import CATEGORY_NAMES
from replay.poker.rulesets import CHECKS
from replay.poker.rulesets import PRESETS as POKER_PRESETS
from replay.rummy.findings import Code as RummyCode
from replay.rummy.rulesets import DEFAULTS as RUMMY_DEFAULTS
from replay.rummy.rulesets import PRESETS as RUMMY_PRESETS


def _enum(values: Any, *, nullable: bool = False) -> Any:
    return typed(enum(values, nullable=nullable), allow_null=nullable)


def _seats(**kwargs: Any) -> serializers.ListField:
    """One integer per seat, in seat order."""
    return serializers.ListField(child=serializers.IntegerField(), **kwargs)


def _numbers(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=typed(SCORE, serializers.FloatField), **kwargs)


# --- the rummy ---------------------------------------------------------------------------------

#: The rummy's and the poker's finding codes, as the schema's enums name them.
RUMMY_CODES = [str(code) for code in RummyCode]
POKER_CODES = [str(code) for code in PokerCode]

RUMMY_PLACES = (
    ("deal", "1-based"),
    ("turn", "1-based, in turns"),
    ("action", "1-based, in the turn"),
)
RummyReportFindingSerializer = report_finding(
    "RummyReportFindingSerializer",
    "A rummy finding (RUMMY-FORMAT): located by deal, turn and action.",
    RUMMY_CODES,
    RUMMY_PLACES,
)
RummyFindingSerializer = report_finding(
    "RummyFindingSerializer",
    "A stored rummy game's finding: every key present, null where it does not apply.",
    RUMMY_CODES,
    RUMMY_PLACES,
    stored=True,
)


#: The rummy's options that are counts; the others of numbers are any number.
_RUMMY_COUNTS = ("decks", "jokers", "hand_size", "min_players", "max_players")


def _rummy_option(name: str, default: Any) -> serializers.Field[Any, Any, Any, Any]:
    if name == "deals":
        words = '"players" (one deal per player) or a number of deals'
        return typed({"anyOf": [{"type": "string"}, {"type": "integer"}]}, help_text=words)
    if name == "going_out_jokers":
        return _numbers(help_text="the points of going out on 1, 2, 3… jokers")
    if isinstance(default, bool):
        return serializers.BooleanField()
    if name in _RUMMY_COUNTS:
        return serializers.IntegerField(min_value=0)
    if name == "max_jokers_per_meld":
        return serializers.IntegerField(min_value=1, allow_null=True)
    return typed(SCORE, serializers.FloatField, allow_null=default is None)


RummyOptionsSerializer = type(
    "RummyOptionsSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "Every option of the rummy (RUMMY §9), resolved.",
        **{name: _rummy_option(name, d) for name, d in RUMMY_DEFAULTS.items()},
    },
)


class RummyRulesetSerializer(serializers.Serializer[Any]):
    """The rummy's ruleset a report was judged by: its preset and every option, resolved."""

    preset = _enum(RUMMY_PRESETS)
    options = RummyOptionsSerializer()


class RummyDealSerializer(serializers.Serializer[Any]):
    """One deal as the replay recomputed it (or, in a sheet deal, as claimed)."""

    number = serializers.IntegerField(min_value=1)
    dealer = serializers.IntegerField(min_value=0)
    out = serializers.IntegerField(
        min_value=0, allow_null=True, help_text="the seat that went out; null: no one did"
    )
    out_jokers = serializers.IntegerField(
        min_value=0, help_text="the jokers of a going-out discard of jokers only"
    )
    left = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        allow_null=True,
        help_text="each seat's cards left in hand (canonical codes); null in a sheet deal "
        "without them",
    )
    points = _numbers(help_text="each seat's points of the deal")
    running = _numbers(help_text="each seat's running total")


class RummyReportSerializer(serializers.Serializer[Any]):
    """The report of a rummy record (RUMMY-FORMAT, "The report"): the lowest total wins."""

    verdict = _enum(Verdict)
    audit = _enum(AUDITS)
    ruleset = RummyRulesetSerializer(allow_null=True, help_text="null when it cannot be read")
    findings = RummyReportFindingSerializer(many=True)
    deals = RummyDealSerializer(many=True)
    totals = _numbers(allow_null=True, help_text="the last running totals; null when malformed")
    winners = _seats(help_text="every seat with the lowest total")


# --- the poker ---------------------------------------------------------------------------------

POKER_PLACES = (("hand", "1-based"), ("stage", "1-based"), ("action", "1-based, in the stage"))
PokerReportFindingSerializer = report_finding(
    "PokerReportFindingSerializer",
    "A poker finding (POKER-FORMAT): located by hand, stage and action.",
    POKER_CODES,
    POKER_PLACES,
)
PokerFindingSerializer = report_finding(
    "PokerFindingSerializer",
    "A stored poker game's finding: every key present, null where it does not apply.",
    POKER_CODES,
    POKER_PLACES,
    stored=True,
)


def _poker_option(
    name: str, default: Any, *, required: bool
) -> serializers.Field[Any, Any, Any, Any]:
    """An option typed as its value in a preset is; a null one is a count or null, but the
    blinds (two counts, or null)."""
    if name == "blinds":
        return _seats(required=required, allow_null=True, help_text="small and big, or null")
    if isinstance(default, bool):
        return serializers.BooleanField(required=required)
    if isinstance(default, int) or default is None:
        return serializers.IntegerField(required=required, allow_null=default is None)
    if isinstance(default, str):
        return serializers.CharField(required=required)
    if isinstance(default, list):
        return _seats(required=required)
    return serializers.DictField(child=serializers.IntegerField(), required=required)


def _poker_options() -> type[serializers.Serializer[Any]]:
    presets = [options for _game, options in POKER_PRESETS.values()]
    common = set.intersection(*(set(o) for o in presets))
    defaults: dict[str, Any] = {}
    for options in presets:
        for name, value in options.items():
            if defaults.get(name) is None:
                defaults[name] = value
    fields = {n: _poker_option(n, defaults[n], required=n in common) for n in CHECKS}
    words = "Every option of the preset's game (POKER §5, §6), resolved: casino or club."
    return type("PokerOptionsSerializer", (serializers.Serializer,), {"__doc__": words, **fields})


class PokerRulesetSerializer(serializers.Serializer[Any]):
    """The poker ruleset a report was judged by: its preset and every option, resolved."""

    preset = _enum(POKER_PRESETS)
    options = _poker_options()()


class PokerPotSerializer(serializers.Serializer[Any]):
    amount = serializers.IntegerField(min_value=0)
    eligible = _seats(help_text="the seats that may win it")
    winners = _seats()


class PokerHandSerializer(serializers.Serializer[Any]):
    """One hand as the replay recomputed it, never as claimed."""

    number = serializers.IntegerField(min_value=1)
    dealer = serializers.IntegerField(
        min_value=0, allow_null=True, help_text="the club game's dealer; null in the casino game"
    )
    ranks = serializers.ListField(
        child=_enum(CATEGORY_NAMES, nullable=True),
        help_text="per seat, the category of its final five cards at a showdown, else null",
    )
    dealer_rank = _enum(CATEGORY_NAMES, nullable=True)
    dealer_qualifies = serializers.BooleanField(allow_null=True, help_text="casino only")
    pots = PokerPotSerializer(many=True, allow_null=True, help_text="club only; null: casino")
    winners = _seats()
    net = _seats(help_text="each seat's gain or loss in the hand")
    stacks = _seats(help_text="each seat's stack after the hand")


class PokerReportSerializer(serializers.Serializer[Any]):
    """The report of a poker record (POKER-FORMAT, "The report"): no audit, every hand is
    replayed in full."""

    verdict = _enum(Verdict)
    ruleset = PokerRulesetSerializer(allow_null=True, help_text="null when it cannot be read")
    findings = PokerReportFindingSerializer(many=True)
    hands = PokerHandSerializer(many=True)
    stacks = _seats(allow_null=True, help_text="the stacks at the end; null when malformed")


#: The report of any family's record: ``/api/verify/`` answers the one of the record's format.
ANY_REPORT = PolymorphicProxySerializer(
    component_name="AnyReport",
    serializers=[ReportSerializer, RummyReportSerializer, PokerReportSerializer],
    resource_type_field_name=None,
)


#: A stored game's findings, each of its family's shape (``GET /api/games/{id}/``).
GAME_FINDINGS = PolymorphicProxySerializer(
    component_name="GameFinding",
    serializers=[FindingSerializer, RummyFindingSerializer, PokerFindingSerializer],
    resource_type_field_name=None,
    many=True,
)
#: A stored game's current report, of its family's shape; null only while it has none.
GAME_REPORT = {
    "allOf": [{"$ref": "#/components/schemas/AnyReport"}],
    "nullable": True,
}
