"""The poker presets and options (docs/poker.md §5, §6) as data.

A ruleset is a preset plus overridden options; ``options`` keeps the resolved JSON values
for the report and the typed fields are read once, so the replay never looks an option up
by name. Validation returns ``record.ruleset`` findings: a bad option belongs to the record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from ..findings import pointer
from .findings import PokerCode, PokerFinding
from .hands import CATEGORY_NAMES, Category, NaturalBeatsWild, Rules


class Game(StrEnum):
    CASINO = "casino"  #: each seat against the house (POKER §3)
    CLUB = "club"  #: the seats against each other for a pot (POKER §4)


PAYTABLE: Final = {
    "high_card": 1,
    "one_pair": 1,
    "two_pair": 2,
    "three_of_a_kind": 3,
    "straight": 4,
    "flush": 5,
    "full_house": 7,
    "four_of_a_kind": 20,
    "straight_flush": 50,
    "royal_flush": 100,
    "five_of_a_kind": 200,
}

_COMMON: Final[dict[str, Any]] = {
    "deck": "53",
    "drawn_joker": False,
    "five_of_a_kind": True,
    "joker_straight_flush": False,
    "natural_beats_wild": "tie",
    "suit_tiebreak": False,
    "suit_order": "CDHS",
    "exchange_min": 1,
    "exchange_max": 5,
    "min_players": 1,
    "max_players": 7,
}
_CASINO: Final[dict[str, Any]] = {
    "min_ante": 1,
    "max_ante": None,
    "call_multiple": 2,
    "max_exchanges": 1,
    "exchange_fee": 1,
    "dealer_qualifier": "ace_king",
    "ante_pays": True,
    "joker_pair_pays_two_pair": False,
    "paytable": PAYTABLE,
    "max_payout": None,
}
_CLUB: Final[dict[str, Any]] = {"ante": 1, "min_bet": 2, "blinds": None, "exchange_stages": [5]}

PRESETS: Final[dict[str, tuple[Game, dict[str, Any]]]] = {
    "joker_poker": (Game.CASINO, {**_COMMON, **_CASINO}),
    "american": (Game.CASINO, {**_COMMON, **_CASINO, "joker_pair_pays_two_pair": True}),
    "j_poker": (Game.CASINO, {**_COMMON, **_CASINO, "deck": "52", "drawn_joker": True}),
    "club_stud": (
        Game.CLUB,
        {
            **_COMMON,
            **_CLUB,
            "deck": "54",
            "suit_tiebreak": True,
            "exchange_min": 0,
            "min_players": 2,
            "max_players": 8,
        },
    ),
}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A resolved ruleset: ``options`` as the report prints them, the rest read from them."""

    preset: str
    game: Game
    options: dict[str, Any]
    rules: Rules
    deck: int  #: 52, 53 or 54 cards
    drawn_joker: bool
    suit_tiebreak: bool
    suit_order: str
    exchange_min: int
    exchange_max: int
    min_players: int
    max_players: int

    def option(self, name: str) -> Any:
        return self.options[name]

    def to_dict(self) -> dict[str, Any]:
        return {"preset": self.preset, "options": self.options}


def _boolean(value: Any) -> bool:
    return type(value) is bool


def _count(low: int) -> Callable[[Any], bool]:
    return lambda value: type(value) is int and value >= low


def _count_or_null(low: int) -> Callable[[Any], bool]:
    return lambda value: value is None or (type(value) is int and value >= low)


def _exchange_size(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 5


def _suit_order(value: Any) -> bool:
    return type(value) is str and sorted(value) == sorted("CDHS")


def _paytable(value: Any) -> bool:
    return isinstance(value, dict) and all(
        k in CATEGORY_NAMES and type(v) is int and v >= 0 for k, v in value.items()
    )


def _blinds(value: Any) -> bool:
    return value is None or (
        type(value) is list
        and len(value) == 2
        and all(type(v) is int and v >= 0 for v in value)
        and value[0] <= value[1]
    )


def _stages(value: Any) -> bool:
    return (
        type(value) is list
        and all(type(v) is int and 1 <= v <= 5 for v in value)
        and len(set(value)) == len(value)
    )


CHECKS: Final[dict[str, Callable[[Any], bool]]] = {
    "deck": lambda value: value in ("52", "53", "54"),
    "drawn_joker": _boolean,
    "five_of_a_kind": _boolean,
    "joker_straight_flush": _boolean,
    "natural_beats_wild": lambda value: value in ("tie", "category", "off"),
    "suit_tiebreak": _boolean,
    "suit_order": _suit_order,
    "exchange_min": _exchange_size,
    "exchange_max": _exchange_size,
    "min_players": _count(1),
    "max_players": _count(1),
    "min_ante": _count(1),
    "max_ante": _count_or_null(1),
    "call_multiple": _count(1),
    "max_exchanges": _count(0),
    "exchange_fee": _count(0),
    "dealer_qualifier": lambda value: value in ("ace_king", "pair", "none"),
    "ante_pays": _boolean,
    "joker_pair_pays_two_pair": _boolean,
    "paytable": _paytable,
    "max_payout": _count_or_null(0),
    "ante": _count(0),
    "min_bet": _count(1),
    "blinds": _blinds,
    "exchange_stages": _stages,
}


def resolve_ruleset(value: Any) -> tuple[Ruleset | None, list[PokerFinding]]:
    """A record's ``ruleset`` → the resolved ruleset, or None and its ``record.ruleset``
    findings (every bad option, each at its place)."""
    if isinstance(value, str):
        preset, overrides, at = value, {}, pointer("ruleset")
    elif isinstance(value, dict) and isinstance(value.get("preset"), str):
        preset, at = value["preset"], pointer("ruleset", "preset")
        overrides = value.get("options", {})
        if not isinstance(overrides, dict) or set(value) - {"preset", "options"}:
            return None, [_bad("the ruleset is a preset and its options only", "ruleset")]
    else:
        return None, [_bad("the ruleset is a preset name or {preset, options}", "ruleset")]
    if preset not in PRESETS:
        return None, [_bad(f"there is no poker preset {preset!r}", at, list(PRESETS), preset)]
    game, defaults = PRESETS[preset]
    findings = []
    options = dict(defaults)
    for name, option in overrides.items():
        path = pointer("ruleset", "options", name)
        if name not in defaults:
            findings.append(_bad(f"{name!r} is not an option of the {game} game", path))
        elif not CHECKS[name](option):
            findings.append(_bad(f"{option!r} is not a value of {name!r}", path, None, option))
        elif name == "paytable":
            options[name] = {**defaults[name], **option}
        else:
            options[name] = option
    if findings:
        return None, findings
    path = pointer("ruleset", "options")
    if options["exchange_min"] > options["exchange_max"]:
        findings.append(_bad("exchange_min is above exchange_max", path))
    if options["min_players"] > options["max_players"]:
        findings.append(_bad("min_players is above max_players", path))
    if options["drawn_joker"] and options["deck"] != "52":
        findings.append(_bad("a drawn joker needs the 52-card deck", path))
    max_ante = options.get("max_ante")
    if max_ante is not None and max_ante < options["min_ante"]:
        findings.append(_bad("max_ante is below min_ante", path))
    if findings:
        return None, findings
    rules = Rules(
        options["five_of_a_kind"],
        options["joker_straight_flush"],
        NaturalBeatsWild(options["natural_beats_wild"]),
    )
    ruleset = Ruleset(
        preset,
        game,
        options,
        rules,
        int(options["deck"]),
        options["drawn_joker"],
        options["suit_tiebreak"],
        options["suit_order"],
        options["exchange_min"],
        options["exchange_max"],
        options["min_players"],
        options["max_players"],
    )
    return ruleset, []


def paid_line(ruleset: Ruleset, category: Category, joker_pair: bool) -> int:
    """The paytable line a casino seat's category pays (``american``: a joker pair is paid
    as two pair)."""
    if joker_pair and category is Category.ONE_PAIR and ruleset.option("joker_pair_pays_two_pair"):
        category = Category.TWO_PAIR
    line: int = ruleset.option("paytable")[str(category)]
    return line


def _bad(message: str, path: str, expected: Any = None, actual: Any = None) -> PokerFinding:
    if not path.startswith("/"):
        path = pointer(path)
    return PokerFinding(
        PokerCode.RECORD_RULESET, message, expected=expected, actual=actual, path=path
    )


__all__ = ["PAYTABLE", "PRESETS", "Game", "Ruleset", "paid_line", "resolve_ruleset"]
