"""The record parser: ``raspis/1`` JSON → typed deals, or ``record.*`` findings.

It never raises on bad input (docs/format.md conventions): every problem becomes a finding
with a JSON Pointer, and the parser goes on so that one report lists all of them. Cards
and plays are read into the int codes of ``cards.py`` here, once, so that the replay
loop works on ints only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard

from ..cards import (
    CARD_CODES,
    DECLARATION_NAMES,
    NAMED_TRUMP,
    PLAY_CODES,
    Declaration,
    play_code,
    read_card,
    read_suit,
)
from ..findings import Code, Finding, pointer
from .rulesets import DealKind, Ruleset, resolve_ruleset
from .teams import teams_problem

NO_TRUMP = -1


@dataclass(slots=True)
class Deal:
    """One deal of the record as written (claims included), cards already read."""

    index: int
    cards: int
    kind: DealKind = DealKind.REGULAR
    dealer: int | None = None
    #: The dealt hands as written: each seat's list of card spellings (all of them readable
    #: in a record that ``parse_record`` returns; an unreadable one makes it malformed).
    written_hands: list[list[str]] | None = None
    #: Each seat's dealt cards as a bitmask, summed straight from the spellings when all are
    #: canonical (the common record), so that a deal that passes the replay's checks never
    #: reads its hands into lists; None otherwise. A repeated card shows as a carry.
    hand_masks: list[int] | None = None
    trump_card: int | None = None
    trump_given: bool = False
    trump: int = NO_TRUMP  #: the stated trump suit, when ``trump_given``
    declarer: int | None = None
    calls: list[tuple[int, int]] | None = None
    bids: list[int | None] | None = None  #: None where a bid is null (``bid.missing``)
    #: Which bids are stated blind; None when every bid is a plain int, the common record.
    dark: list[bool] | None = None
    tricks: list[list[int]] | None = None  #: each trick's play codes, in play order
    #: The leader each trick states (None where one does not), checked against the rules;
    #: None when no trick states one, the common record, which spares the check per trick.
    leaders: list[int | None] | None = None
    taken: list[int] | None = None
    scores: list[int | float] | None = None
    running: list[int | float] | None = None
    #: The seat that claims every trick after ``tricks`` (``claim.py``), or None.
    claim: int | None = None

    @property
    def hands(self) -> list[list[int]] | None:
        """Each seat's dealt cards, in the order written; None without hands. Read on
        demand: only a hand with a problem, or a replay viewer, needs the list."""
        if self.written_hands is None:
            return None
        return [[_known_card(text) for text in hand] for hand in self.written_hands]


def _known_card(text: str) -> int:
    card = read_card(text)
    assert card is not None, "the parser has read every card of a hand"
    return card


@dataclass(slots=True)
class Record:
    players: list[str]
    ruleset: Ruleset
    first_dealer: int = 0
    meta: dict[str, Any] = field(default_factory=dict)
    deals: list[Deal] = field(default_factory=list)
    totals: list[int | float] | None = None


_INT_TYPES: frozenset[type] = frozenset({int})
_NUMBER_TYPES: frozenset[type] = frozenset({int, float})


def _is_int(value: Any) -> TypeGuard[int]:
    return type(value) is int


def _is_number(value: Any) -> bool:
    return type(value) is int or (type(value) is float and math.isfinite(value))


def _finite(values: list[Any]) -> bool:
    """No NaN or infinity among the floats of ``values``: Python's JSON reader accepts
    ``NaN`` and ``Infinity``, which are not numbers of a record (nor of JSON)."""
    try:
        return all(map(math.isfinite, values))  # ints too, at C speed
    except OverflowError:  # an int too large for a float, which is finite all the same
        return all(math.isfinite(v) for v in values if type(v) is float)


class _Reader:
    """Collects findings while reading one record; each ``need_*`` returns None if bad."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []

    def schema(self, message: str, path: str, actual: Any = None, deal: int | None = None) -> None:
        self.findings.append(
            Finding(Code.RECORD_SCHEMA, message, deal=deal, actual=actual, path=path)
        )

    def need_list(
        self,
        obj: Mapping[str, Any],
        key: str,
        where: tuple[str | int, ...],
        length: int | None,
        deal: int | None = None,
    ) -> list[Any] | None:
        value = obj.get(key)
        if not isinstance(value, list):
            self.schema(f"{key} must be a list", pointer(*where, key), value, deal)
            return None
        if length is not None and len(value) != length:
            message = f"{key} must have {length} entries, not {len(value)}"
            self.schema(message, pointer(*where, key), value, deal)
            return None
        return value

    def numbers(
        self,
        obj: Mapping[str, Any],
        key: str,
        where: tuple[str | int, ...],
        length: int,
        deal: int | None = None,
        integers: bool = False,
    ) -> list[Any] | None:
        values = obj.get(key)
        if values is None:
            return None
        if type(values) is list and len(values) == length:  # the common case, at C speed
            if _INT_TYPES.issuperset(map(type, values)):
                return values
            if not integers and _NUMBER_TYPES.issuperset(map(type, values)) and _finite(values):
                return values
        values = self.need_list(obj, key, where, length, deal)
        if values is None:
            return None
        types = set(map(type, values))
        if types <= _INT_TYPES or (not integers and types <= _NUMBER_TYPES and _finite(values)):
            return values  # the common case
        check = _is_int if integers else _is_number
        for i, value in enumerate(values):
            if not check(value):
                kind = "an integer" if integers else "a number"
                self.schema(f"{key}[{i}] must be {kind}", pointer(*where, key, i), value, deal)
                return None
        return values

    # ``card`` and ``play`` take the location as parts and make the JSON Pointer only for a
    # finding: a record full of valid object plays would otherwise build one per play.

    def card(self, text: Any, where: tuple[str | int, ...], deal: int) -> int | None:
        card = read_card(text) if isinstance(text, str) else None
        if card is None:
            self.findings.append(
                Finding(
                    Code.RECORD_CARD,
                    f"cannot read the card {text!r}",
                    deal=deal,
                    actual=text,
                    path=pointer(*where),
                )
            )
        return card

    def play(self, value: Any, where: tuple[str | int, ...], deal: int) -> int | None:
        if isinstance(value, str):
            code = PLAY_CODES.get(value)
            if code is None:
                code = PLAY_CODES.get(value.strip().upper())
            if code is not None:
                return code
        elif isinstance(value, dict):
            return self._object_play(value, where, deal)
        self.findings.append(
            Finding(
                Code.RECORD_CARD,
                f"cannot read the play {value!r}",
                deal=deal,
                actual=value,
                path=pointer(*where),
            )
        )
        return None

    def _object_play(
        self, value: dict[str, Any], where: tuple[str | int, ...], deal: int
    ) -> int | None:
        card = self.card(value.get("card"), (*where, "card"), deal)
        if card is None:
            return None
        joker = value.get("joker")
        if joker is None:
            return card
        declaration = DECLARATION_NAMES.get(joker) if isinstance(joker, str) else None
        if declaration is None:
            return play_code(card, Declaration.UNKNOWN)
        named = 0
        suit = value.get("suit")
        if declaration in (Declaration.LEAD_HIGHEST, Declaration.LEAD_LOWEST):
            if suit in ("trump", "*"):
                named = NAMED_TRUMP
            elif isinstance(suit, str) and (index := read_suit(suit)) is not None:
                named = index + 1
        return play_code(card, declaration, named)


def parse_record(
    obj: Any, stored_rulesets: Mapping[str, Any] | None = None
) -> tuple[Record | None, list[Finding]]:
    """A decoded JSON value → a record, or None with ``record.*`` findings."""
    if not isinstance(obj, dict):
        return None, [Finding(Code.RECORD_JSON, "the record is not a JSON object", path="")]
    r = _Reader()
    if obj.get("format") != "raspis/1":
        r.schema('format must be "raspis/1"', pointer("format"), obj.get("format"))
    ruleset, ruleset_findings = resolve_ruleset(obj.get("ruleset"), stored_rulesets)
    if "ruleset" not in obj:
        r.schema("ruleset is required", pointer("ruleset"))
    else:
        r.findings.extend(ruleset_findings)
    players = r.need_list(obj, "players", (), None)
    n = 0
    if players is not None:
        if not players or not all(isinstance(p, str) for p in players):
            r.schema("players must be a non-empty list of names", pointer("players"), players)
            players = None
        else:
            n = len(players)
            _check_players(r, players, ruleset)
            if ruleset is not None and ruleset.teams is not None:
                problem = teams_problem(ruleset.teams, len(players))
                if problem:
                    where = ("ruleset", "options", "teams")
                    path = pointer(*where) if isinstance(obj.get("ruleset"), dict) else "/ruleset"
                    r.findings.append(
                        Finding(
                            Code.RECORD_RULESET,
                            problem,
                            actual=list(map(list, ruleset.teams)),
                            path=path,
                        )
                    )
    first_dealer = obj.get("first_dealer", 0)
    if not _is_int(first_dealer) or (n and not 0 <= first_dealer < n):
        r.schema("first_dealer must be a seat", pointer("first_dealer"), first_dealer)
    meta = obj.get("meta", {})
    if not isinstance(meta, dict):
        r.schema("meta must be an object", pointer("meta"), meta)
        meta = {}
    deals_json = r.need_list(obj, "deals", (), None)
    deals = []
    if deals_json is not None and n:
        for index, deal_json in enumerate(deals_json):
            deal = _parse_deal(r, deal_json, index, n)
            if deal is not None:
                deals.append(deal)
    totals = r.numbers(obj, "totals", (), n) if n else None
    if r.findings or ruleset is None or players is None:
        return None, r.findings
    record = Record(players, ruleset, first_dealer, meta, deals, totals)
    return record, []


def _check_players(r: _Reader, players: list[str], ruleset: Ruleset | None) -> None:
    seen: dict[str, int] = {}
    for seat, name in enumerate(players):
        key = name.strip().casefold()
        if key in seen:
            r.findings.append(
                Finding(
                    Code.RECORD_PLAYERS,
                    f"the name {name!r} is repeated",
                    seat=seat,
                    player=name,
                    path=pointer("players", seat),
                )
            )
        seen[key] = seat
    if ruleset is not None and not ruleset.min_players <= len(players) <= ruleset.max_players:
        r.findings.append(
            Finding(
                Code.RECORD_PLAYERS,
                f"{ruleset.preset} is played by {ruleset.min_players} to "
                f"{ruleset.max_players} players, not {len(players)}",
                expected=[ruleset.min_players, ruleset.max_players],
                actual=len(players),
                path=pointer("players"),
            )
        )


def _parse_deal(r: _Reader, obj: Any, index: int, n: int) -> Deal | None:
    number = index + 1
    where: tuple[str | int, ...] = ("deals", index)
    if not isinstance(obj, dict):
        r.schema("a deal must be an object", pointer(*where), obj, number)
        return None
    get = obj.get
    cards = get("cards")
    if not _is_int(cards) or cards < 1:
        r.schema("cards must be a positive integer", pointer(*where, "cards"), cards, number)
        cards = 0
    deal = Deal(index, cards)
    kind = get("kind", "regular")
    known = _KIND_OF.get(kind) if type(kind) is str else None
    if known is None:
        r.schema(f"unknown deal kind {kind!r}", pointer(*where, "kind"), kind, number)
    else:
        deal.kind = known
    for key in ("dealer", "declarer"):
        seat = get(key)
        if seat is not None:
            if not _is_int(seat) or not 0 <= seat < n:
                r.schema(f"{key} must be a seat", pointer(*where, key), seat, number)
            else:
                setattr(deal, key, seat)
    hands = get("hands")
    if hands is not None:
        if type(hands) is not list or len(hands) != n:
            hands = r.need_list(obj, "hands", where, n, number)
        if hands is not None:
            _parse_hands(r, deal, hands, where, number)
    trump_card = get("trump_card")
    if trump_card is not None:
        deal.trump_card = CARD_CODES.get(trump_card) if type(trump_card) is str else None
        if deal.trump_card is None:
            deal.trump_card = r.card(trump_card, (*where, "trump_card"), number)
    if "trump" in obj:
        trump = obj["trump"]
        suit = read_suit(trump) if isinstance(trump, str) else None
        if trump is not None and suit is None:
            r.schema("trump must be S, C, D, H or null", pointer(*where, "trump"), trump, number)
        deal.trump_given = True
        deal.trump = NO_TRUMP if suit is None else suit
    calls = get("calls")
    if calls is not None:
        deal.calls = _parse_calls(r, calls, where, number, n)
    if get("bids") is not None:
        parsed_bids = _parse_bids(r, obj, where, number, n)
        if parsed_bids is not None:
            deal.bids, deal.dark = parsed_bids
    tricks = get("tricks")
    if tricks is not None:
        parsed = _parse_tricks(r, obj, where, number, n)
        if parsed is not None:
            deal.tricks, deal.leaders = parsed
    claim = get("claim")
    if claim is not None:
        deal.claim = _parse_claim(r, claim, deal, tricks, where, number, n)
    deal.taken = r.numbers(obj, "taken", where, n, number, integers=True)
    deal.scores = r.numbers(obj, "scores", where, n, number)
    deal.running = r.numbers(obj, "running", where, n, number)
    if tricks is None and get("taken") is None:
        r.schema("taken is required when tricks are absent", pointer(*where, "taken"), None, number)
    return deal


def _parse_hands(
    r: _Reader, deal: Deal, hands: list[Any], where: tuple[str | int, ...], number: int
) -> None:
    if _LIST_TYPE.issuperset(map(type, hands)):
        try:  # the common record: every card spelt canonically (see ``_parse_tricks``)
            deal.hand_masks = [sum(map(_CARD_BIT, hand)) for hand in hands]
            deal.written_hands = hands
            return
        except (KeyError, TypeError):
            pass
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list):
            r.schema("a hand must be a list of cards", pointer(*where, "hands", seat), hand, number)
            return
        for i, text in enumerate(hand):
            r.card(text, (*where, "hands", seat, i), number)
    deal.written_hands = hands


def _parse_calls(
    r: _Reader, calls: Any, where: tuple[str | int, ...], number: int, n: int
) -> list[tuple[int, int]] | None:
    ok = isinstance(calls, list) and all(
        isinstance(c, list) and len(c) == 2 and _is_int(c[0]) and 0 <= c[0] < n and _is_int(c[1])
        for c in calls
    )
    if not ok:
        r.schema("calls must be a list of [seat, bid]", pointer(*where, "calls"), calls, number)
        return None
    return [(seat, bid) for seat, bid in calls]


def _parse_claim(
    r: _Reader,
    claim: Any,
    deal: Deal,
    tricks: Any,
    where: tuple[str | int, ...],
    number: int,
    n: int,
) -> int | None:
    """The claimer's seat (docs/format.md "Claims"): a claim is of the tricks after the
    deal's ``tricks``, so it needs them, and a trick left to claim."""
    path = pointer(*where, "claim")
    if not isinstance(claim, dict):
        r.schema('claim must be an object {"seat": seat}', path, claim, number)
        return None
    seat = claim.get("seat")
    if not _is_int(seat) or not 0 <= seat < n:
        r.schema("the claim's seat must be a seat", pointer(*where, "claim", "seat"), seat, number)
        return None
    if tricks is None:
        r.schema("a claim needs the tricks played before it", path, claim, number)
        return None
    if deal.tricks is not None and deal.cards and len(deal.tricks) >= deal.cards:
        r.schema("a claim needs a trick left to claim", path, claim, number)
        return None
    return seat


def _parse_bids(
    r: _Reader, obj: dict[str, Any], where: tuple[str | int, ...], number: int, n: int
) -> tuple[list[int | None], list[bool] | None] | None:
    """The bids (None where a seat's is null), and which are stated blind (None when
    every bid is an int)."""
    bids = obj["bids"]
    if type(bids) is list and len(bids) <= n and _INT_TYPES.issuperset(map(type, bids)):
        return bids, None  # the common case: no blind bids
    if not isinstance(bids, list) or len(bids) > n:
        r.schema(f"bids must be a list of at most {n} bids", pointer(*where, "bids"), bids, number)
        return None
    parsed: list[int | None] = []
    dark: list[bool] = []
    for seat, bid in enumerate(bids):
        if _is_int(bid) or bid is None:  # null: an empty cell of a sheet, ``bid.missing``
            parsed.append(bid)
            dark.append(False)
        elif (
            isinstance(bid, dict)
            and _is_int(bid.get("bid"))
            and isinstance(bid.get("dark", False), bool)
        ):
            parsed.append(bid["bid"])
            dark.append(bid.get("dark", False))
        else:
            r.schema(
                'a bid must be an integer, null or {"bid": n, "dark": true}',
                pointer(*where, "bids", seat),
                bid,
                number,
            )
            return None
    return parsed, dark


def _parse_tricks(
    r: _Reader, obj: dict[str, Any], where: tuple[str | int, ...], number: int, n: int
) -> tuple[list[list[int]], list[int | None] | None] | None:
    """The tricks as play codes, and the leaders they state (None if no trick states one).

    Nearly every trick's plays, in a plain list or in a trick object, are canonical play
    strings: they are read with one ``map`` of dictionary lookups, which raises on anything
    else (a misspelt or an object play). Only then are the plays read one by one, by
    ``_Reader.play``, which reads object plays and locates every problem: an exception
    costs more than a trick's lookups, so a trick raises at most once.
    """
    tricks = obj["tricks"]
    if not isinstance(tricks, list):
        r.schema("tricks must be a list", pointer(*where, "tricks"), tricks, number)
        return None
    parsed: list[list[int]] = []
    leaders: list[int | None] | None = None
    for t, trick in enumerate(tricks):
        plays = trick
        if type(trick) is not list:
            if isinstance(trick, dict):
                leader = trick.get("leader")
                plays = trick.get("plays")
                if not _is_int(leader) or not 0 <= leader < n:
                    r.schema(
                        "leader must be a seat",
                        pointer(*where, "tricks", t, "leader"),
                        leader,
                        number,
                    )
                    return None
                if leaders is None:
                    leaders = [None] * len(tricks)
                leaders[t] = leader
            if not isinstance(plays, list):
                r.schema(
                    "a trick must be a list of plays", pointer(*where, "tricks", t), plays, number
                )
                return None
        try:
            parsed.append(list(map(_PLAY_CODE, plays)))
            continue
        except (KeyError, TypeError):
            pass  # a play to read on its own, and perhaps to report
        read = [r.play(play, (*where, "tricks", t, i), number) for i, play in enumerate(plays)]
        if None in read:
            return None
        parsed.append(read)  # type: ignore[arg-type]
    return parsed, leaders


_LIST_TYPE: frozenset[type] = frozenset({list})
_KIND_OF: Final = {kind.value: kind for kind in DealKind}
_PLAY_CODE = PLAY_CODES.__getitem__
_CARD_BIT = {text: 1 << card for text, card in CARD_CODES.items()}.__getitem__
