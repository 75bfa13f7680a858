"""The rummy's presets and options (docs/rummy.md "Options" and "Presets")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

DEFAULTS: Final[dict[str, Any]] = {
    "decks": 2,
    "jokers": 2,
    "hand_size": 14,
    "min_players": 2,
    "max_players": 7,
    "opening_min": 51,
    "ace_low_counts_for_opening": False,
    "max_jokers_per_meld": None,
    "joker_value": 10,
    "joker_last_card_value": 50,
    "going_out": -50,
    "going_out_jokers": [-100, -200, -400],
    "violation_penalty": None,
    "deals": "players",
    "loss_limit": None,
}

PRESETS: Final[dict[str, dict[str, Any]]] = {
    "joker_rummy": {},
    "joker_rummy_3decks": {"decks": 3, "jokers": 3, "min_players": 8, "max_players": 11},
}


def _integer(value: Any, least: int) -> bool:
    return type(value) is int and value >= least


def _number(value: Any) -> bool:
    return type(value) in (int, float) and value == value and abs(value) != float("inf")


def _valid(name: str, value: Any) -> bool:
    if name in ("decks", "hand_size", "min_players", "max_players"):
        return _integer(value, 1)
    if name == "jokers":
        return _integer(value, 0)
    if name == "opening_min":
        return _number(value) and value >= 0
    if name == "ace_low_counts_for_opening":
        return type(value) is bool
    if name == "max_jokers_per_meld":
        return value is None or _integer(value, 1)
    if name in ("joker_value", "joker_last_card_value", "going_out"):
        return _number(value)
    if name == "going_out_jokers":
        return type(value) is list and len(value) > 0 and all(_number(v) for v in value)
    if name in ("violation_penalty", "loss_limit"):
        return value is None or _number(value)
    if name == "deals":
        return value == "players" or _integer(value, 1)
    return False


@dataclass(frozen=True, slots=True)
class Ruleset:
    preset: str
    options: dict[str, Any]

    @property
    def size(self) -> int:
        return int(52 * self.options["decks"] + self.options["jokers"])

    def jokers_out(self, jokers: int) -> Any:
        """The points of going out on ``jokers`` jokers; past the list, each doubles."""
        table: list[Any] = self.options["going_out_jokers"]
        if jokers <= len(table):
            return table[jokers - 1]
        return table[-1] * 2 ** (jokers - len(table))

    def deals_for(self, players: int) -> int:
        deals = self.options["deals"]
        return players if deals == "players" else int(deals)

    def to_dict(self) -> dict[str, Any]:
        options = dict(self.options)
        options["going_out_jokers"] = list(options["going_out_jokers"])
        return {"preset": self.preset, "options": options}


def resolve(value: Any, stored: Mapping[str, Any] | None = None) -> Ruleset | str:
    """A record's ``ruleset`` → the ruleset, or why it cannot be read (``record.ruleset``)."""
    if isinstance(value, str):
        if value in PRESETS:
            return Ruleset(value, {**DEFAULTS, **PRESETS[value]})
        if stored and value in stored and stored[value] != value:
            return resolve(stored[value])
        return f"unknown ruleset {value!r}"
    if not isinstance(value, dict):
        return "the ruleset is neither a preset's name nor an object"
    preset = value.get("preset")
    if not isinstance(preset, str) or preset not in PRESETS:
        return f"unknown preset {preset!r}"
    overrides = value.get("options", {})
    if not isinstance(overrides, dict):
        return "the ruleset's options are not an object"
    options = {**DEFAULTS, **PRESETS[preset]}
    for name, option in overrides.items():
        if name not in DEFAULTS:
            return f"unknown option {name!r}"
        if not _valid(name, option):
            return f"bad value {option!r} of the option {name!r}"
        options[name] = option
    if options["min_players"] > options["max_players"]:
        return "min_players is above max_players"
    return Ruleset(preset, options)
