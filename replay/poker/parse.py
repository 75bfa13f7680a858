"""The ``raspis-poker/1`` reader: JSON → typed hands, or ``record.*`` findings.

It never raises on bad input (docs/poker-format.md): every problem becomes a located
finding and the reader goes on, so one report lists them all. Cards are read into the
engine's ints once (``??`` is ``UNSEEN``); the replay works on ints only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from ..cards import X1, read_card
from ..findings import pointer
from .findings import PokerCode, PokerFinding
from .hands import CATEGORY_NAMES
from .rulesets import Game, Ruleset, resolve_ruleset

FORMAT: Final = "raspis-poker/1"
UNSEEN: Final = -1  #: ``??``: a card nobody saw


class Act(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    EXCHANGE = "exchange"


@dataclass(frozen=True, slots=True)
class Action:
    seat: int
    act: Act
    amount: int | None = None
    cards: tuple[int, ...] = ()  #: an exchange's discards
    new: tuple[int, ...] = ()  #: an exchange's new cards


@dataclass(frozen=True, slots=True)
class Shown:
    seat: int
    cards: tuple[int, ...] | None
    rank: str | None


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    winners: tuple[int, ...]


@dataclass(slots=True)
class Hand:
    """One hand as written, claims included."""

    index: int
    dealer: int | None = None
    antes: list[int] = field(default_factory=list)
    joker: int | None = None
    cards: list[list[int] | None] = field(default_factory=list)
    dealer_cards: list[int] | None = None
    stages: list[list[Action]] = field(default_factory=list)
    showdown: list[Shown] = field(default_factory=list)
    dealer_rank: str | None = None
    pots: list[Pot] | None = None
    winners: list[int] | None = None
    net: list[int] | None = None
    stacks: list[int] | None = None


@dataclass(slots=True)
class Record:
    ruleset: Ruleset
    players: list[str]
    stacks: list[int]
    first_dealer: int
    hands: list[Hand]
    final_stacks: list[int] | None


def _integer(value: Any) -> bool:
    return type(value) is int


class _Reader:
    """Collects ``record.*`` findings while reading; the values read after a finding only
    need to be well typed, since a record with findings is not replayed."""

    def __init__(self) -> None:
        self.findings: list[PokerFinding] = []
        self.seats = 0

    def bad(self, message: str, *at: str | int, code: PokerCode = PokerCode.RECORD_SCHEMA) -> None:
        hand = at[1] + 1 if len(at) > 1 and at[0] == "hands" and type(at[1]) is int else None
        self.findings.append(PokerFinding(code, message, hand=hand, path=pointer(*at)))

    def card(self, value: Any, *at: str | int) -> int:
        if value == "??":
            return UNSEEN
        card = read_card(value) if isinstance(value, str) else None
        if card is None and isinstance(value, str) and value.strip().upper() == "X":
            card = X1
        if card is None:
            self.bad(f"{value!r} is not a card", *at, code=PokerCode.RECORD_CARD)
            return UNSEEN
        return card

    def cards(self, value: Any, *at: str | int) -> list[int]:
        if not isinstance(value, list):
            self.bad("a list of cards is expected", *at)
            return []
        return [self.card(v, *at, i) for i, v in enumerate(value)]

    def seat(self, value: Any, *at: str | int) -> int:
        if not _integer(value) or not 0 <= value < self.seats:
            self.bad(f"{value!r} is not a seat of this record", *at)
            return 0
        return int(value)

    def per_seat(self, value: Any, *at: str | int, null: bool = False) -> list[Any] | None:
        if value is None and null:
            return None
        if not isinstance(value, list) or len(value) != self.seats:
            self.bad(f"a list of one entry per seat ({self.seats}) is expected", *at)
            return None
        return value

    def amounts(self, value: Any, *at: str | int, nulls: bool = False) -> list[int] | None:
        values = self.per_seat(value, *at)
        if values is None:
            return None
        out = []
        for i, v in enumerate(values):
            if v is None and nulls:
                v = 0
            if not _integer(v):
                self.bad(f"{v!r} is not an integer amount", *at, i)
                v = 0
            out.append(v)
        return out


def parse_record(obj: Any) -> tuple[Record | None, Ruleset | None, list[PokerFinding]]:
    """A decoded record → (record, ruleset, findings); the record is None when the findings
    make it malformed."""
    reader = _Reader()
    if not isinstance(obj, dict):
        reader.findings.append(
            PokerFinding(PokerCode.RECORD_JSON, "a record is a JSON object", path="")
        )
        return None, None, reader.findings
    if obj.get("format") != FORMAT:
        reader.bad(f"the format is {FORMAT!r}", "format")
    if "ruleset" in obj:
        ruleset, problems = resolve_ruleset(obj["ruleset"])
        reader.findings += problems
    else:
        ruleset = None
        reader.bad("the record names its ruleset", "ruleset")
    players, stacks = _seats(reader, obj.get("seats"))
    if (
        ruleset is not None
        and players
        and not (ruleset.min_players <= len(players) <= ruleset.max_players)
    ):
        reader.bad(
            f"{ruleset.preset} is played by {ruleset.min_players} to {ruleset.max_players} seats",
            "seats",
            code=PokerCode.RECORD_PLAYERS,
        )
    first = obj.get("first_dealer", 0)
    first_dealer = reader.seat(first, "first_dealer") if players else 0
    hands_value = obj.get("hands")
    hands: list[Hand] = []
    if not isinstance(hands_value, list):
        reader.bad("the hands are a list", "hands")
    elif ruleset is not None and players:
        hands = [_hand(reader, ruleset, h, i) for i, h in enumerate(hands_value)]
    final = obj.get("stacks")
    final_stacks = None if final is None else reader.amounts(final, "stacks")
    if "meta" in obj and not isinstance(obj["meta"], dict):
        reader.bad("meta is an object", "meta")
    if reader.findings or ruleset is None:
        return None, ruleset, reader.findings
    return Record(ruleset, players, stacks, first_dealer, hands, final_stacks), ruleset, []


def _seats(reader: _Reader, value: Any) -> tuple[list[str], list[int]]:
    if not isinstance(value, list) or not value:
        reader.bad("the seats are a non-empty list", "seats")
        return [], []
    players: list[str] = []
    stacks: list[int] = []
    for i, seat in enumerate(value):
        if not isinstance(seat, dict) or not isinstance(seat.get("name"), str):
            reader.bad("a seat is {name, stack}", "seats", i)
            continue
        stack: Any = seat.get("stack")
        if not _integer(stack) or stack < 1:
            reader.bad("a seat's stack is an integer of at least 1", "seats", i, "stack")
            stack = 1
        players.append(seat["name"])
        stacks.append(stack)
    if len(set(players)) != len(players):
        reader.bad("a name is repeated", "seats", code=PokerCode.RECORD_PLAYERS)
    reader.seats = len(value)
    return players, stacks


_OPTIONAL: Final = (
    "dealer",
    "joker",
    "showdown",
    "dealer_rank",
    "pots",
    "winners",
    "net",
    "stacks",
)


def _hand(reader: _Reader, ruleset: Ruleset, value: Any, index: int) -> Hand:
    at: tuple[str | int, ...] = ("hands", index)
    hand = Hand(index)
    game = ruleset.game
    if not isinstance(value, dict):
        reader.bad("a hand is an object", *at)
        return hand
    if ruleset.drawn_joker and value.get("joker") is None:
        reader.bad("a hand with a drawn joker names it", *at, "joker")
    if game is Game.CLUB and value.get("dealer") is not None:
        hand.dealer = reader.seat(value["dealer"], *at, "dealer")
    if game is Game.CASINO:
        antes = reader.amounts(value.get("antes"), *at, "antes", nulls=True)
        hand.antes = antes or [0] * reader.seats
    if value.get("joker") is not None:
        hand.joker = reader.card(value["joker"], *at, "joker")
    cards = reader.per_seat(value.get("cards"), *at, "cards")
    if cards is not None:
        hand.cards = [
            None if c is None else reader.cards(c, *at, "cards", s) for s, c in enumerate(cards)
        ]
    else:
        hand.cards = [None] * reader.seats
    if game is Game.CASINO and "dealer_cards" not in value:
        reader.bad("a casino hand gives the dealer's cards (null when every seat folded)", *at)
    elif game is Game.CASINO and value["dealer_cards"] is not None:
        hand.dealer_cards = reader.cards(value["dealer_cards"], *at, "dealer_cards")
    stages = value.get("stages")
    if not isinstance(stages, list) or not all(isinstance(s, list) for s in stages):
        reader.bad("the stages are a list of lists of actions", *at, "stages")
    else:
        hand.stages = [
            [_action(reader, a, *at, "stages", st, i) for i, a in enumerate(stage)]
            for st, stage in enumerate(stages)
        ]
    showdown = value.get("showdown")
    if showdown is not None:
        if not isinstance(showdown, list):
            reader.bad("the showdown is a list", *at, "showdown")
        else:
            hand.showdown = [_shown(reader, s, *at, "showdown", i) for i, s in enumerate(showdown)]
    rank = value.get("dealer_rank")
    if rank is not None and (not isinstance(rank, str) or rank not in CATEGORY_NAMES):
        reader.bad("a rank is a category name", *at, "dealer_rank")
    hand.dealer_rank = rank if isinstance(rank, str) else None
    if value.get("pots") is not None:
        hand.pots = _pots(reader, value["pots"], *at, "pots")
    if value.get("winners") is not None:
        hand.winners = _seat_list(reader, value["winners"], *at, "winners")
    if value.get("net") is not None:
        hand.net = reader.amounts(value["net"], *at, "net")
    if value.get("stacks") is not None:
        hand.stacks = reader.amounts(value["stacks"], *at, "stacks")
    return hand


def _seat_list(reader: _Reader, value: Any, *at: str | int) -> list[int]:
    if not isinstance(value, list):
        reader.bad("a list of seats is expected", *at)
        return []
    return [reader.seat(v, *at, i) for i, v in enumerate(value)]


def _pots(reader: _Reader, value: Any, *at: str | int) -> list[Pot]:
    if not isinstance(value, list):
        reader.bad("the pots are a list", *at)
        return []
    pots = []
    for i, pot in enumerate(value):
        if not isinstance(pot, dict) or not _integer(pot.get("amount")):
            reader.bad("a pot is {amount, winners}", *at, i)
            continue
        winners = _seat_list(reader, pot.get("winners", []), *at, i, "winners")
        pots.append(Pot(pot["amount"], tuple(winners)))
    return pots


def _shown(reader: _Reader, value: Any, *at: str | int) -> Shown:
    if not isinstance(value, dict):
        reader.bad("a showdown entry is {seat, cards, rank}", *at)
        return Shown(0, None, None)
    seat = reader.seat(value.get("seat"), *at, "seat")
    cards = value.get("cards")
    shown = None if cards is None else tuple(reader.cards(cards, *at, "cards"))
    rank = value.get("rank")
    if rank is not None and (not isinstance(rank, str) or rank not in CATEGORY_NAMES):
        reader.bad("a rank is a category name", *at, "rank")
        rank = None
    return Shown(seat, shown, rank)


def _action(reader: _Reader, value: Any, *at: str | int) -> Action:
    if not isinstance(value, dict):
        reader.bad("an action is an object", *at)
        return Action(0, Act.FOLD)
    seat = reader.seat(value.get("seat"), *at, "seat")
    word = value.get("action")
    if not isinstance(word, str) or word not in Act.__members__.values():
        reader.bad(f"{word!r} is not an action", *at, "action")
        return Action(seat, Act.FOLD)
    act = Act(word)
    amount = value.get("amount")
    if amount is not None and not _integer(amount):
        reader.bad(f"{amount!r} is not an integer amount", *at, "amount")
        amount = None
    if act in (Act.BET, Act.RAISE) and amount is None:
        reader.bad(f"a {act} names its amount", *at, "amount")
    if act is Act.EXCHANGE:
        return Action(
            seat,
            act,
            None,
            tuple(reader.cards(value.get("cards"), *at, "cards")),
            tuple(reader.cards(value.get("new"), *at, "new")),
        )
    return Action(seat, act, amount)


__all__ = ["FORMAT", "UNSEEN", "Act", "Action", "Hand", "Pot", "Record", "Shown", "parse_record"]
