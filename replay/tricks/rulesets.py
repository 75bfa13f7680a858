"""Rulesets as data: the presets of RULES §8 and the options of RULES §9.

A ruleset is a preset plus overridden options. Options keep their JSON values in
``Ruleset.options`` (what the report prints, resolved) and are read into typed fields
once, so the replay never looks an option up by name. Validation returns
``record.ruleset`` findings instead of raising: a bad option is a property of the
uploaded record, not a programmer error.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from ..cards import (
    CARD_CODES,
    DECLARATION_NAMES,
    Deck,
    Declaration,
    card_name,
    deck_mask,
    read_card,
)
from ..findings import Code, Finding, pointer
from ..scores import Number, Score, exact
from .formula import Formula, FormulaError, parse_formula
from .teams import Teams, is_teams


class DealKind(StrEnum):
    """The kinds of deal (RULES §2), as records write them."""

    REGULAR = "regular"
    NO_TRUMP = "no_trump"
    DARK = "dark"  #: every bid is blind
    MISERE = "misere"  #: no bids; each trick taken costs
    GOLDEN = "golden"  #: no bids; each trick taken scores
    FOREHEAD = "forehead"  #: one card each, seen by the others only (RULES §10.12)


class TrumpMode(StrEnum):
    """How a deal's trump is chosen (RULES §6, option ``trump``; ``fixed:D`` is ``FIXED``)."""

    CARD = "card"  #: the suit of a turned-up card
    ROTATING = "rotating"  #: by trick, the suit after the led one (RULES §10.14)
    DECLARED = "declared"  #: named by the auction's declarer (RULES §10.10)
    FIXED = "fixed"  #: the same suit every deal


class TrumpCardSource(StrEnum):
    """Where the turned-up trump card lies (RULES §6, option ``trump_card_source``)."""

    DEALER_LAST = "dealer_last"
    STOCK = "stock"  #: under the stock; the dealer's last card when every card is dealt
    ANY = "any"  #: not checked


class DemandSuits(StrEnum):
    """The suits a ``lead_highest`` joker may name (RULES §5, option ``lead_highest_suits``)."""

    TRUMP = "trump"
    SUIT = "suit"  #: a suit, not "trumps"
    ANY = "any"


class IdenticalCards(StrEnum):
    """Which of two identical cards of the 104-card deck in one trick may take it (option
    ``identical_cards``, docs/rules.md §1)."""

    FIRST_WINS = "first_wins"  #: the one played first (RULES §1)
    LAST_WINS = "last_wins"
    CANCEL = "cancel"  #: neither; with nothing left to take it, the leader does


class Scoring(StrEnum):
    """The score tables of RULES §7 (option ``scoring``)."""

    STANDARD = "standard"
    GEORGIAN = "georgian"
    OH_HELL = "oh_hell"
    FORMULA = "formula"  #: ``formula_made`` and ``formula_missed`` (``formula.py``)


class ScheduleName(StrEnum):
    """The named schedules of RULES §8 (option ``schedule``, which may also be a list)."""

    CLASSIC = "classic"
    DETSKY = "detsky"
    TWO_JACKS = "two_jacks"
    GEORGIAN = "georgian"
    JOKER54 = "joker54"
    FREE = "free"  #: any deals the players choose


#: Option values as JSON holds them: plain strings, for the options and their validators.
KINDS: Final = tuple(kind.value for kind in DealKind)
SPECIALS: Final = tuple(
    kind.value for kind in (DealKind.NO_TRUMP, DealKind.DARK, DealKind.MISERE, DealKind.GOLDEN)
)
SCHEDULE_NAMES: Final = tuple(name.value for name in ScheduleName)
#: The ``deck`` option that picks the deck by the number of players (``Ruleset.deck_for``).
BY_PLAYERS: Final = "by_players"
DECKS: Final = (*(deck.value for deck in Deck), BY_PLAYERS)

DEFAULTS: Final[dict[str, Any]] = {
    "deck": "36",
    "jokers": ["7S"],
    "declarations": ["high", "low", "lead_highest", "lead_lowest"],
    "lead_highest_suits": "any",
    "joker_silent_high": False,
    "later_joker_wins": True,
    "joker_highest_suit_winner": "joker",
    "joker_demand_first_trick_only": False,
    "trump": "card",
    "trump_card_source": "any",
    "bidding": "sequential",
    "first_bidder": "left",
    "first_leader": "left",
    "last_bidder_restriction": True,
    "three_passes_rule": False,
    "dark_bids": False,
    "dark_multiplier": 2,
    "must_trump": True,
    "schedule": "classic",
    "forehead_deal": False,
    "kinds_allowed": list(KINDS),
    "no_trump_bids": True,
    "scoring": "standard",
    "pass_made": 5,
    "made_per_trick": 10,
    "over_per_trick": 1,
    "under_per_missing": -10,
    "all_in_double": False,
    "kind_multipliers": {kind: 1 for kind in KINDS},
    "golden_per_trick": 10,
    "misere_per_trick": -10,
    "misere_clean_bonus": 0,
    "forehead_made_per_trick": 50,
    "forehead_under_per_missing": -50,
    "points_per_trick": 1,
    "exact_bonus": 10,
    "off_bid_penalty": False,
    "revoke_penalty": None,
    "min_players": 3,
    "max_players": 6,
    "identical_cards": "first_wins",
    "formula_made": None,
    "formula_missed": None,
    "teams": None,
}

_DETSKY: Final[dict[str, Any]] = {
    "min_players": 2,
    "max_players": 5,
    "declarations": ["high", "plain", "lead_highest"],
    "lead_highest_suits": "trump",
    "joker_silent_high": True,
    "trump": "fixed:D",
    "dark_bids": True,
    "last_bidder_restriction": False,
    "schedule": "detsky",
    "kind_multipliers": {"dark": 2},
    "golden_per_trick": 20,
}

PRESETS: Final[dict[str, dict[str, Any]]] = {
    "detsky": _DETSKY,
    "classic": {
        "three_passes_rule": True,
        "all_in_double": True,
        "kind_multipliers": {kind: 1.5 for kind in SPECIALS},
        "misere_clean_bonus": 50,
    },
    "podkidnoy": {
        "max_players": 5,
        "deck": "by_players",
        "declarations": ["high", "low", "lead_highest"],
        "lead_highest_suits": "trump",
        "trump": "declared",
        "bidding": "auction",
        "last_bidder_restriction": False,
        "schedule": "free",
        "kind_multipliers": {kind: 2 for kind in SPECIALS},
    },
    "two_jacks": {
        "max_players": 4,
        "jokers": ["JC", "JS"],
        "declarations": ["high", "low", "lead_highest"],
        "lead_highest_suits": "trump",
        "trump_card_source": "dealer_last",
        "first_bidder": "dealer",
        "first_leader": "dealer",
        "last_bidder_restriction": False,
        "schedule": "two_jacks",
        "no_trump_bids": False,
    },
    "joker54": {
        "min_players": 2,
        "max_players": 10,
        "deck": "54",
        "jokers": ["X1", "X2"],
        "declarations": ["high", "low", "plain", "lead_highest", "lead_lowest"],
        "trump_card_source": "stock",
        "schedule": "joker54",
        "kind_multipliers": {kind: 2 for kind in SPECIALS},
    },
    "rotating": {
        **_DETSKY,
        "declarations": ["high", "plain", "lead_highest"],
        "lead_highest_suits": "suit",
        "trump": "rotating",
    },
    "georgian": {
        "min_players": 4,
        "schedule": "georgian",
        "scoring": "georgian",
        "revoke_penalty": 50,
    },
    "oh_hell": {
        "max_players": 7,
        "deck": "52",
        "jokers": [],
        "declarations": [],
        "trump_card_source": "stock",
        "must_trump": False,
        "schedule": "free",
        "scoring": "oh_hell",
    },
}


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return type(value) is int


def _one_of(*values: str) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, str) and value in values


def _list_of(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, list) and all(check(v) for v in value)


def _is_card(value: Any) -> bool:
    return isinstance(value, str) and read_card(value) is not None


def _is_schedule(value: Any) -> bool:
    if isinstance(value, str):
        return value in SCHEDULE_NAMES
    return (
        isinstance(value, list)
        and len(value) > 0
        and all(
            isinstance(item, list)
            and len(item) == 2
            and _is_int(item[0])
            and item[0] > 0
            and item[1] in KINDS
            for item in value
        )
    )


def _is_formula(value: Any) -> bool:
    """A string or null; whether the string reads is checked apart, for the position of its
    mistake (``_formula_findings``)."""
    return value is None or isinstance(value, str)


def _is_kind_map(value: Any) -> bool:
    return isinstance(value, dict) and all(k in KINDS and _is_number(v) for k, v in value.items())


_BOOL: Final = lambda value: isinstance(value, bool)  # noqa: E731
_TRUMPS: Final = ("card", "rotating", "declared", "fixed:S", "fixed:C", "fixed:D", "fixed:H")

VALIDATORS: Final[dict[str, tuple[Callable[[Any], bool], str]]] = {
    "deck": (_one_of(*DECKS), "one of " + ", ".join(DECKS)),
    "jokers": (_list_of(_is_card), "a list of card codes"),
    "declarations": (_list_of(_one_of(*DECLARATION_NAMES)), "a list of declarations"),
    "lead_highest_suits": (_one_of(*DemandSuits), "trump, suit or any"),
    "joker_highest_suit_winner": (_one_of("joker", "highest_trump"), "joker or highest_trump"),
    "trump": (_one_of(*_TRUMPS), "one of " + ", ".join(_TRUMPS)),
    "trump_card_source": (_one_of(*TrumpCardSource), "dealer_last, stock or any"),
    "bidding": (_one_of("sequential", "auction"), "sequential or auction"),
    "first_bidder": (_one_of("left", "dealer"), "left or dealer"),
    "first_leader": (_one_of("left", "dealer"), "left or dealer"),
    "schedule": (_is_schedule, "a schedule name or a list of [cards, kind]"),
    "kinds_allowed": (_list_of(_one_of(*KINDS)), "a list of deal kinds"),
    "scoring": (_one_of(*Scoring), "standard, georgian, oh_hell or formula"),
    "kind_multipliers": (_is_kind_map, "a map of deal kind to number"),
    "revoke_penalty": (lambda v: v is None or _is_number(v), "a number or null"),
    "min_players": (lambda v: _is_int(v) and v >= 2, "an integer of at least 2"),
    "max_players": (lambda v: _is_int(v) and v >= 2, "an integer of at least 2"),
    "identical_cards": (_one_of(*IdenticalCards), "first_wins, last_wins or cancel"),
    "formula_made": (_is_formula, "a formula (a string) or null"),
    "formula_missed": (_is_formula, "a formula (a string) or null"),
    "teams": (is_teams, "null or a list of teams, each a non-empty list of seats, no seat twice"),
}
#: The options holding a formula, read (and their mistakes located) by ``formula.py``.
FORMULAS: Final = ("formula_made", "formula_missed")
for _name, _default in DEFAULTS.items():
    if _name not in VALIDATORS:
        if isinstance(_default, bool):
            VALIDATORS[_name] = (_BOOL, "true or false")
        else:
            VALIDATORS[_name] = (_is_number, "a number")


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A resolved ruleset: the option values of RULES §9, read once into typed fields."""

    preset: str
    options: Mapping[str, Any]
    deck: Deck | None  #: None: by the number of players (``BY_PLAYERS``)
    joker_mask: int
    declarations: frozenset[Declaration]
    lead_highest_suits: DemandSuits
    joker_silent_high: bool
    later_joker_wins: bool
    demand_to_highest_trump: bool
    joker_demand_first_trick_only: bool
    trump: TrumpMode
    fixed_trump: int
    trump_card_source: TrumpCardSource
    auction: bool
    first_bidder_is_dealer: bool
    first_leader_is_dealer: bool
    hook: bool
    three_passes: bool
    dark_bids: bool
    dark_multiplier: Number
    must_trump: bool
    schedule: ScheduleName | tuple[tuple[int, DealKind], ...]
    forehead_deal: bool
    kinds_allowed: frozenset[DealKind]
    no_trump_bids: bool
    scoring: Scoring
    pass_made: Number
    made_per_trick: Number
    over_per_trick: Number
    under_per_missing: Number
    all_in_double: bool
    kind_multipliers: Mapping[DealKind, Number]
    golden_per_trick: Number
    misere_per_trick: Number
    misere_clean_bonus: Number
    forehead_made_per_trick: Number
    forehead_under_per_missing: Number
    points_per_trick: Number
    exact_bonus: Number
    off_bid_penalty: bool
    revoke_penalty: Number | None
    min_players: int
    max_players: int
    identical_cards: IdenticalCards
    #: ``scoring: formula``: the score of an exact bid and of a miss (None under any other).
    formula_made: Formula | None
    formula_missed: Formula | None
    #: Seats scored together (``teams.py``), each seat in one team; None: every seat alone.
    teams: Teams | None
    #: Deal scores already computed under this ruleset, keyed by (kind, cards, bid, blind,
    #: taken): a game repeats few keys and a preset is shared by every game played under it.
    scores: dict[tuple[DealKind, int, int | None, bool, int], tuple[Score, int]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: What the replay derives from the ruleset for a number of players (deck, schedule,
    #: masks), keyed by that number: made by the first game of that size, like ``scores``.
    tables: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)
    #: The options whose values are lists or objects, the only ones ``to_dict`` must copy.
    nested: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """A fresh copy: presets are shared, and a report's reader may change its copy.

        Every report makes one, so the scalars, which cannot change, are copied at C speed
        and only the few ``nested`` values one by one.
        """
        options = dict(self.options)
        for name in self.nested:
            options[name] = _fresh(options[name])
        return {"preset": self.preset, "options": options}

    def deck_for(self, players: int) -> Deck:
        """The deck actually used: ``by_players`` is podkidnoy's 3→36, 4→52, 5→104, read
        on both sides (fewer than 3: 36, more than 5: 104), the deck growing with the table."""
        if self.deck is not None:
            return self.deck
        if players <= 3:
            return Deck.SHORT
        return Deck.FULL if players == 4 else Deck.DOUBLE

    def bids_in(self, kind: DealKind) -> bool:
        """Whether a deal of this kind has bidding (RULES §2, ``no_trump_bids``)."""
        if kind in _WITHOUT_BIDS:
            return False
        return kind is not _NO_TRUMP or self.no_trump_bids


_WITHOUT_BIDS: Final = frozenset({DealKind.MISERE, DealKind.GOLDEN})
#: An enum member read from the class costs a descriptor call in Python 3.11; the replay
#: asks ``bids_in`` once a deal or more.
_NO_TRUMP: Final = DealKind.NO_TRUMP


_SCALARS: Final = frozenset({str, int, bool, float, type(None)})


def _fresh(value: Any) -> Any:
    """A deep copy of JSON data, several times faster than ``copy.deepcopy``: every report
    copies its ruleset's options. Anything but dicts, lists and scalars goes to ``deepcopy``.
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {
            key: item if type(item) in _SCALARS else _fresh(item) for key, item in value.items()
        }
    if kind is list:
        return [item if type(item) in _SCALARS else _fresh(item) for item in value]
    return copy.deepcopy(value)


def _build(preset: str, options: dict[str, Any]) -> Ruleset:
    o = options
    return Ruleset(
        preset=preset,
        options=o,
        deck=None if o["deck"] == BY_PLAYERS else Deck(o["deck"]),
        joker_mask=sum(1 << CARD_CODES[read_card_upper(c)] for c in o["jokers"]),
        declarations=frozenset(DECLARATION_NAMES[d] for d in o["declarations"]),
        lead_highest_suits=DemandSuits(o["lead_highest_suits"]),
        joker_silent_high=o["joker_silent_high"],
        later_joker_wins=o["later_joker_wins"],
        demand_to_highest_trump=o["joker_highest_suit_winner"] == "highest_trump",
        joker_demand_first_trick_only=o["joker_demand_first_trick_only"],
        trump=TrumpMode(o["trump"].split(":")[0]),
        fixed_trump="SCDH".index(o["trump"][-1]) if o["trump"].startswith("fixed:") else -1,
        trump_card_source=TrumpCardSource(o["trump_card_source"]),
        auction=o["bidding"] == "auction",
        first_bidder_is_dealer=o["first_bidder"] == "dealer",
        first_leader_is_dealer=o["first_leader"] == "dealer",
        hook=o["last_bidder_restriction"],
        three_passes=o["three_passes_rule"],
        dark_bids=o["dark_bids"],
        dark_multiplier=exact(o["dark_multiplier"]),
        must_trump=o["must_trump"],
        schedule=ScheduleName(o["schedule"])
        if isinstance(o["schedule"], str)
        else tuple((cards, DealKind(kind)) for cards, kind in o["schedule"]),
        forehead_deal=o["forehead_deal"],
        kinds_allowed=frozenset(map(DealKind, o["kinds_allowed"])),
        no_trump_bids=o["no_trump_bids"],
        scoring=Scoring(o["scoring"]),
        pass_made=exact(o["pass_made"]),
        made_per_trick=exact(o["made_per_trick"]),
        over_per_trick=exact(o["over_per_trick"]),
        under_per_missing=exact(o["under_per_missing"]),
        all_in_double=o["all_in_double"],
        kind_multipliers={DealKind(k): exact(v) for k, v in o["kind_multipliers"].items()},
        golden_per_trick=exact(o["golden_per_trick"]),
        misere_per_trick=exact(o["misere_per_trick"]),
        misere_clean_bonus=exact(o["misere_clean_bonus"]),
        forehead_made_per_trick=exact(o["forehead_made_per_trick"]),
        forehead_under_per_missing=exact(o["forehead_under_per_missing"]),
        points_per_trick=exact(o["points_per_trick"]),
        exact_bonus=exact(o["exact_bonus"]),
        off_bid_penalty=o["off_bid_penalty"],
        revoke_penalty=None if o["revoke_penalty"] is None else exact(o["revoke_penalty"]),
        min_players=o["min_players"],
        max_players=o["max_players"],
        identical_cards=IdenticalCards(o["identical_cards"]),
        formula_made=_formula(o["formula_made"]),
        formula_missed=_formula(o["formula_missed"]),
        teams=None if o["teams"] is None else tuple(tuple(team) for team in o["teams"]),
        nested=tuple(name for name, value in o.items() if type(value) not in _SCALARS),
    )


def _formula(text: str | None) -> Formula | None:
    return None if text is None else parse_formula(text)


def read_card_upper(text: str) -> str:
    """The canonical spelling of a card option (``"7s"`` → ``"7S"``)."""
    card = read_card(text)
    assert card is not None, "validated before"
    return card_name(card)


def _merged(preset: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    options = {**DEFAULTS, **PRESETS[preset]}
    multipliers = {**DEFAULTS["kind_multipliers"], **PRESETS[preset].get("kind_multipliers", {})}
    multipliers.update(overrides.get("kind_multipliers", {}))
    options.update(overrides)
    options["kind_multipliers"] = multipliers
    options["jokers"] = [read_card_upper(c) for c in options["jokers"]]
    return options


@functools.cache
def preset_ruleset(name: str) -> Ruleset:
    """A preset with its own options: for code that knows the name is valid.

    Cached: a preset is immutable data, shared by every record that names it.
    """
    return _build(name, _merged(name, {}))


def resolve_ruleset(
    value: Any, stored: Mapping[str, Any] | None = None
) -> tuple[Ruleset | None, list[Finding]]:
    """The record's ``ruleset`` field → a ruleset, or None with ``record.ruleset`` findings.

    ``stored`` maps the names of rulesets saved in the service to their ``{"preset",
    "options"}`` objects; a record may name one as if it were a preset.
    """
    path = pointer("ruleset")
    if isinstance(value, str):
        if value in PRESETS:
            return preset_ruleset(value), []
        if stored and value in stored:
            return resolve_ruleset(stored[value])
        return None, [_ruleset_finding(f"unknown ruleset {value!r}", path, value)]
    if not isinstance(value, dict):
        return None, [_ruleset_finding("ruleset is not a name or an object", path, value)]
    preset = value.get("preset")
    if not isinstance(preset, str) or preset not in PRESETS:
        return None, [
            _ruleset_finding(f"unknown preset {preset!r}", pointer("ruleset", "preset"), preset)
        ]
    overrides = value.get("options", {})
    if not isinstance(overrides, dict):
        return None, [
            _ruleset_finding("options is not an object", pointer("ruleset", "options"), overrides)
        ]
    findings = []
    for name, option in overrides.items():
        where = pointer("ruleset", "options", name)
        if name not in VALIDATORS:
            findings.append(_ruleset_finding(f"unknown option {name!r}", where, name))
            continue
        check, wanted = VALIDATORS[name]
        if not check(option):
            findings.append(
                _ruleset_finding(f"option {name} must be {wanted}, not {option!r}", where, option)
            )
    if findings:
        return None, findings
    options = _merged(preset, overrides)
    findings = _formula_findings(options)
    if findings:
        return None, findings
    if options["min_players"] > options["max_players"]:
        return None, [
            _ruleset_finding(
                "min_players is above max_players", pointer("ruleset", "options"), options
            )
        ]
    return _build(preset, options), []


def _formula_findings(options: Mapping[str, Any]) -> list[Finding]:
    """Each formula that does not read, at its option with the position of the mistake; and
    under ``scoring: formula``, each formula missing."""
    findings = []
    for name in FORMULAS:
        text = options[name]
        where = pointer("ruleset", "options", name)
        if text is None:
            if options["scoring"] == Scoring.FORMULA:
                findings.append(
                    _ruleset_finding(f"scoring formula needs the option {name}", where, None)
                )
            continue
        try:
            parse_formula(text)
        except FormulaError as error:
            findings.append(_ruleset_finding(f"option {name}: {error}", where, text))
    return findings


def _ruleset_finding(message: str, path: str, actual: Any) -> Finding:
    return Finding(Code.RECORD_RULESET, message, actual=actual, path=path)


def max_hand(ruleset: Ruleset, players: int) -> int:
    """``M`` of RULES §8: the largest equal hand; jokers count (RULES §10.12)."""
    deck = ruleset.deck_for(players)
    size = deck_mask(deck).bit_count() * deck.copies
    return size // players


def schedule_for(ruleset: Ruleset, players: int) -> list[tuple[int, DealKind]] | None:
    """The deals the ruleset requires, as ``(cards, kind)``; None for a free schedule."""
    schedule = ruleset.schedule
    if not isinstance(schedule, str):
        return list(schedule)
    if schedule is ScheduleName.FREE:
        return None
    m = max_hand(ruleset, players)
    series = [*range(1, m), *[m] * players, *range(m - 1, 0, -1)]
    regular = [(c, DealKind.REGULAR) for c in series]
    if schedule is ScheduleName.TWO_JACKS:
        dark = [(c, DealKind.DARK) for c in series]
        return regular + dark + [(c, DealKind.NO_TRUMP) for c in series]
    if schedule is ScheduleName.DETSKY:
        return regular + [(m, DealKind.DARK)] * players + [(m, DealKind.GOLDEN)]
    if schedule is ScheduleName.GEORGIAN:
        top = min(m, 8)
        up = [(c, DealKind.REGULAR) for c in range(1, top + 1)]
        block = [(m, DealKind.REGULAR)] * 4
        return up + block + up[::-1] + block
    specials = [(m, DealKind(kind)) for kind in SPECIALS for _ in range(players)]
    forehead = schedule is ScheduleName.JOKER54 and ruleset.forehead_deal
    return regular + specials + ([(1, DealKind.FOREHEAD)] if forehead else [])
