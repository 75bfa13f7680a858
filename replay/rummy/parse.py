"""Reading a ``raspis-rummy/1`` record into typed turns (docs/rummy.md "The record").

Everything that makes a record unreadable is found here, as ``record.*`` findings with a
JSON Pointer, before any card moves: such a record is malformed and not replayed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import CODES, JOKER, KINDS, read_card, read_entry
from .findings import Code, Finding, pointer
from .rulesets import Ruleset, resolve

FORMAT: Final = "raspis-rummy/1"
Path = tuple[str | int, ...]
"""Where in the record: a JSON Pointer's parts, passed as one tuple (a call with ``*parts``
costs several plain ones on every turn) and joined only for a finding."""
ACTIONS: Final = ("meld", "lay_off", "replace_joker", "join")
ONE_CARD: Final = tuple((card,) for card in range(KINDS))
"""A turn's discard of one card, shared: most turns hold nothing else that stays."""
NEEDED: Final = {
    "lay_off": ("meld", "cards"),
    "replace_joker": ("meld", "card"),
    "join": ("meld", "to"),
}


@dataclass(slots=True)
class Action:
    kind: str  #: one of ``ACTIONS``
    cards: list[int]  #: the cards it takes from the hand: a meld's, a lay-off's, a replacement's
    #: Per joker a meld or lay-off lays, the card it stands for: a tuple, as most actions lay
    #: no joker and the empty one is shared.
    stands: tuple[int | None, ...]
    meld: int | None = None  #: the meld laid off on, replaced in, or joined
    to: int | None = None  #: the meld joined to


@dataclass(slots=True)
class Turn:
    seat: int | None
    draw: str | None  #: ``stock``, ``discard`` or None
    drawn: int | None  #: the card a draw names
    actions: Sequence[Action]
    discard: Sequence[int] | None  #: None when the turn has no discard


@dataclass(slots=True)
class Deal:
    dealer: int | None
    hands: list[list[int]] | None
    stock: list[int] | None  #: top first
    turns: list[Turn] | None
    out: int | None
    out_jokers: int | None
    left: list[list[int]] | None
    points: list[Any] | None
    running: list[Any] | None


@dataclass(slots=True)
class Record:
    players: list[str]
    ruleset: Ruleset
    first_dealer: int
    deals: list[Deal]
    totals: list[Any] | None


def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


class _Reader:
    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.players = 0

    def fail(self, code: Code, message: str, *path: str | int) -> None:
        self.findings.append(Finding(code, message, path=pointer(*path)))

    def card(self, value: Any, path: Path) -> int:
        card = CODES.get(value) if type(value) is str else None
        if card is not None:
            return card
        card = read_card(value) if isinstance(value, str) else None
        if card is None:
            if isinstance(value, str):
                self.fail(Code.RECORD_CARD, f"the card {value!r} cannot be read", *path)
            else:
                self.fail(Code.RECORD_SCHEMA, "a card is not a string", *path)
            return 0
        return card

    def cards(self, value: Any, path: Path) -> list[int]:
        if not isinstance(value, list):
            self.fail(Code.RECORD_SCHEMA, "a list of cards is due here", *path)
            return []
        try:  # every card a common spelling: one lookup each, at C speed, nothing to scan
            return list(map(CODES.__getitem__, value))
        except (KeyError, TypeError):  # another spelling, or a list or an object
            return [self.card(v, (*path, i)) for i, v in enumerate(value)]

    def entries(self, value: Any, path: Path) -> tuple[list[int], tuple[int | None, ...]]:
        """A meld's cards, a joker as ``JOKER``, and per joker the card it stands for."""
        if not isinstance(value, list):
            self.fail(Code.RECORD_SCHEMA, "a list of cards is due here", *path)
            return [], ()
        try:  # every card a common spelling, no joker designated: one lookup each
            common = list(map(CODES.__getitem__, value))
            return common, (None,) * common.count(JOKER)
        except (KeyError, TypeError):  # another spelling, a designation, a list or an object
            pass
        cards: list[int] = []
        stands: list[int | None] = []
        for i, text in enumerate(value):
            entry = read_entry(text) if isinstance(text, str) else None
            if entry is None:
                if isinstance(text, str):
                    self.fail(Code.RECORD_CARD, f"the card {text!r} cannot be read", *path, i)
                else:
                    self.fail(Code.RECORD_SCHEMA, "a card is not a string", *path, i)
                entry = (0, None)
            cards.append(entry[0])
            if entry[0] == JOKER:
                stands.append(entry[1])
        return cards, tuple(stands)

    def per_seat(self, value: Any, what: str, *path: str | int) -> bool:
        if not isinstance(value, list) or len(value) != self.players:
            self.fail(Code.RECORD_SCHEMA, f"{what} needs one entry per player", *path)
            return False
        return True

    def numbers(self, value: Any, what: str, *path: str | int) -> list[Any] | None:
        if value is None:
            return None
        if not self.per_seat(value, what, *path):
            return None
        if not all(_is_number(v) for v in value):
            self.fail(Code.RECORD_SCHEMA, f"{what} holds something that is not a number", *path)
            return None
        return list(value)

    def seat(self, value: Any, what: str, *path: str | int) -> int | None:
        if value is None:
            return None
        if not _is_int(value) or not 0 <= value < self.players:
            self.fail(Code.RECORD_SCHEMA, f"{what} is not a seat of the players", *path)
            return None
        return int(value)

    def action(self, value: Any, path: Path) -> Action | None:
        kind = next(iter(value)) if isinstance(value, dict) and len(value) == 1 else None
        if kind not in ACTIONS:
            self.fail(
                Code.RECORD_SCHEMA, "an action must have one key of " + ", ".join(ACTIONS), *path
            )
            return None
        body = value[kind]
        if kind == "meld":
            cards, stands = self.entries(body, (*path, kind))
            return Action(kind, cards, stands)
        needed = NEEDED[kind]
        if not isinstance(body, dict) or not all(map(body.__contains__, needed)):
            self.fail(Code.RECORD_SCHEMA, f"{kind} needs " + " and ".join(needed), *path, kind)
            return None
        if type(body["meld"]) is not int or (kind == "join" and type(body["to"]) is not int):
            self.fail(Code.RECORD_SCHEMA, "a meld number is not an integer", *path, kind)
            return None
        if kind == "lay_off":
            cards, stands = self.entries(body["cards"], (*path, kind, "cards"))
            return Action(kind, cards, stands, body["meld"])
        if kind == "join":
            return Action(kind, [], (), body["meld"], to=body["to"])
        return Action(kind, [self.card(body["card"], (*path, kind, "card"))], (), body["meld"])

    def turn(self, value: Any, known_stock: bool, path: Path) -> Turn | None:
        if not isinstance(value, dict):
            self.fail(Code.RECORD_SCHEMA, "a turn is not an object", *path)
            return None
        seat = value.get("seat")
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.players):
            seat = self.seat(seat, "the turn's seat", *path, "seat")
        draw, drawn = value.get("draw"), None
        if draw == "stock":
            if not known_stock:
                self.fail(
                    Code.RECORD_SCHEMA,
                    "a stock draw must name its card: the deal has no stock",
                    *path,
                    "draw",
                )
        elif draw is None or draw == "discard":
            pass  # the other common draws, read at once
        elif isinstance(draw, dict):
            source = draw.get("from")
            if source not in ("stock", "discard") or "card" not in draw:
                self.fail(Code.RECORD_SCHEMA, "a draw names its source and card", *path, "draw")
                source = None
            else:
                named = draw["card"]
                drawn = CODES.get(named) if type(named) is str else None
                if drawn is None:
                    drawn = self.card(named, (*path, "draw", "card"))
            draw = source
        else:
            self.fail(
                Code.RECORD_SCHEMA, 'a draw is "stock", "discard" or an object', *path, "draw"
            )
            draw = None
        actions_value = value.get("actions")
        actions: Sequence[Action] = ()
        if actions_value is None:
            pass
        elif not isinstance(actions_value, list):
            self.fail(Code.RECORD_SCHEMA, "actions is not a list", *path, "actions")
        else:
            read: list[Action] = []
            for i, a in enumerate(actions_value):
                action = self.action(a, (*path, "actions", i))
                if action is not None:
                    read.append(action)
            actions = read
        discard_value = value.get("discard")
        discard: Sequence[int] | None = None
        card = CODES.get(discard_value) if type(discard_value) is str else None
        if card is not None:
            discard = ONE_CARD[card]
        elif isinstance(discard_value, list):
            discard = self.cards(discard_value, (*path, "discard")) or None
        elif discard_value is not None:
            discard = [self.card(discard_value, (*path, "discard"))]
        return Turn(seat, draw, drawn, actions, discard)

    def deal(self, value: Any, *path: str | int) -> Deal | None:
        if not isinstance(value, dict):
            self.fail(Code.RECORD_SCHEMA, "a deal is not an object", *path)
            return None
        dealer = self.seat(value.get("dealer"), "the dealer", *path, "dealer")
        turns_value = value.get("turns")
        hands = stock = None
        turns: list[Turn] | None = None
        if "hands" in value and self.per_seat(value["hands"], "hands", *path, "hands"):
            hands = [self.cards(h, (*path, "hands", s)) for s, h in enumerate(value["hands"])]
        if value.get("stock") is not None:
            stock = self.cards(value["stock"], (*path, "stock"))
        if turns_value is not None:
            if not isinstance(turns_value, list):
                self.fail(Code.RECORD_SCHEMA, "turns is not a list", *path, "turns")
            else:
                if "hands" not in value:
                    self.fail(Code.RECORD_SCHEMA, "a deal with turns needs its hands", *path)
                turns = []
                for t, v in enumerate(turns_value):
                    turn = self.turn(v, stock is not None, (*path, "turns", t))
                    if turn is not None:
                        turns.append(turn)
        out = self.seat(value.get("out"), "out", *path, "out")
        if turns is None and out is None and "out" not in value:
            self.fail(Code.RECORD_SCHEMA, "a deal without turns needs out", *path)
        out_jokers = value.get("out_jokers")
        if out_jokers is not None and not (_is_int(out_jokers) and out_jokers >= 0):
            self.fail(
                Code.RECORD_SCHEMA,
                "out_jokers is not an integer of at least 0",
                *path,
                "out_jokers",
            )
            out_jokers = None
        left = None
        if value.get("left") is not None and self.per_seat(value["left"], "left", *path, "left"):
            left = [self.cards(h, (*path, "left", s)) for s, h in enumerate(value["left"])]
        points = self.numbers(value.get("points"), "points", *path, "points")
        if turns is None and value.get("points") is None:
            self.fail(Code.RECORD_SCHEMA, "a deal without turns needs points", *path)
        running = self.numbers(value.get("running"), "running", *path, "running")
        return Deal(dealer, hands, stock, turns, out, out_jokers, left, points, running)


def parse_record(
    obj: Any, stored: Mapping[str, Any] | None = None
) -> tuple[Record | None, Ruleset | None, list[Finding]]:
    """A decoded record → the record, its ruleset, and the findings that make it malformed
    (the ruleset is given when it could be read, for the malformed report)."""
    reader = _Reader()
    if not isinstance(obj, dict):
        reader.fail(Code.RECORD_JSON, "the record is not a JSON object")
        return None, None, reader.findings
    if obj.get("format") != FORMAT:
        reader.fail(Code.RECORD_SCHEMA, f"the format is not {FORMAT}", "format")
    ruleset = resolve(obj.get("ruleset"), stored)
    if isinstance(ruleset, str):
        reader.fail(Code.RECORD_RULESET, ruleset, "ruleset")
    players = obj.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        reader.fail(Code.RECORD_SCHEMA, "players is not a list of names", "players")
        players = []
    reader.players = len(players)
    if len(set(players)) != len(players):
        reader.fail(Code.RECORD_PLAYERS, "a player's name is repeated", "players")
    rules = ruleset if isinstance(ruleset, Ruleset) else None
    if rules is not None and players:
        o = rules.options
        if not o["min_players"] <= len(players) <= o["max_players"]:
            reader.fail(
                Code.RECORD_PLAYERS,
                f"{len(players)} players, the ruleset takes {o['min_players']}–{o['max_players']}",
                "players",
            )
        elif len(players) * o["hand_size"] + 1 >= rules.size:
            reader.fail(
                Code.RECORD_PLAYERS,
                f"the deck of {rules.size} cards leaves no stock for {len(players)} players",
                "players",
            )
    first = obj.get("first_dealer", 0)
    if not _is_int(first) or not 0 <= first < max(len(players), 1):
        reader.fail(Code.RECORD_SCHEMA, "first_dealer is not a seat of the players", "first_dealer")
        first = 0
    deals: list[Deal] = []
    deals_value = obj.get("deals")
    if not isinstance(deals_value, list):
        reader.fail(Code.RECORD_SCHEMA, "deals is not a list", "deals")
    else:
        for d, value in enumerate(deals_value):
            deal = reader.deal(value, "deals", d)
            if deal is not None:
                deals.append(deal)
    totals = reader.numbers(obj.get("totals"), "totals", "totals")
    if reader.findings or rules is None:
        return None, rules, reader.findings
    return Record(players, rules, first, deals, totals), rules, reader.findings
