"""The table of a rummy deal after one of its turns: what a replay page or a deep link shows.

``state_after`` replays the whole record (so the findings are the verifier's own) through
the replay's ``observe`` hook and copies the deal's state once, at the turn asked for: the
table's numbered melds with who laid them, the pile's top, each hand, the stock's size and
every finding up to that moment. Turn 0 is the deal as dealt, before turn 1.

A turn recorded after a player went out is not replayed (``turn.after_out``): the table
stays as the going out left it, and only its findings are added.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..tricks.state import NoSuchMoment
from .cards import ACE, JOKER, card_name, names
from .findings import Finding
from .game import replay
from .melds import Kind, Meld, run_positions
from .parse import Deal, Record, parse_record
from .report import Report

if TYPE_CHECKING:
    from .game import _Deal


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its number in the deal, the seat that laid it, its cards as
    players write them (a run's in order along the run, a joker with the card it stands
    for: ``X=QC``; a set's joker is ``X``) and its kind (None: no valid meld)."""

    number: int
    owner: int
    cards: list[str]
    kind: str | None


@dataclass(frozen=True, slots=True)
class TurnState:
    """A deal after ``turn`` of its ``turns`` (0: as dealt)."""

    deal: int
    turn: int
    turns: int  #: the turns the deal records (0 in a deal audited from the sheet)
    dealer: int
    seat: int | None  #: the seat that played ``turn`` (None before turn 1)
    draw: str | None  #: where that turn drew from: ``stock``, ``discard``, or None
    discard: list[str] | None  #: what that turn discarded
    melds: list[TableMeld]
    pile_top: str | None
    pile: int  #: the cards in the discard pile
    stock: int  #: the cards in the stock
    hands: list[list[str]]  #: per seat, canonical codes (empty in a sheet deal)
    opened: list[bool]
    out: int | None  #: the seat that went out, once it has
    replayed: bool  #: False for a turn after the going out, which moves nothing
    findings: list[Finding]  #: every finding of the game up to this moment, in order


@dataclass(slots=True)
class _Snapshot:
    turn: int
    melds: list[TableMeld]
    pile_top: str | None
    pile: int
    stock: int
    hands: list[list[str]]
    opened: list[bool]
    out: int | None
    findings: int  #: how many of the report's findings come before this moment


def state_after(
    obj: Any, deal: int, turn: int | None = None, stored_rulesets: Mapping[str, Any] | None = None
) -> tuple[TurnState | None, Report | None, list[Finding]]:
    """The state of ``deal`` after ``turn`` (1-based, as players count; None: its last turn),
    and the game's report; None and the findings when the record cannot be replayed. A
    moment the record does not have is the caller's mistake: ``NoSuchMoment``."""
    record, _ruleset, findings = parse_record(obj, stored_rulesets)
    if record is None:
        return None, None, findings
    if not 1 <= deal <= len(record.deals):
        raise NoSuchMoment("deal", deal, len(record.deals))
    source = record.deals[deal - 1]
    turns = len(source.turns or [])
    if turn is None:
        turn = turns
    if not 0 <= turn <= turns:
        raise NoSuchMoment("turn", turn, turns, deal=deal, first=0)
    watch = _Watch(deal, turn)
    report = replay(record, watch.observe)
    return _state(record, report, deal, turn, watch), report, []


class _Watch:
    """The observer: counts each deal's replayed turns and copies the one asked for (and
    the deal's start, which turn 1 is the first to show)."""

    def __init__(self, deal: int, turn: int) -> None:
        self.deal, self.turn = deal, turn
        self.seen = 0
        self.start: _Snapshot | None = None
        self.last: _Snapshot | None = None  #: the latest replayed turn up to ``turn``

    def observe(self, state: _Deal) -> None:
        if state.number != self.deal:
            return
        self.seen += 1
        if self.seen == 1:
            self.start = _start(state)
        if self.seen <= self.turn:
            self.last = _snapshot(state, self.seen)


def _start(state: _Deal) -> _Snapshot:
    """The deal as dealt, read at its first replayed turn: the dealt hands, the whole
    stock, and the findings before any turn (the dealer, the cards dealt)."""
    deal = state.deal
    hands = deal.hands or [[] for _ in range(state.n)]
    size = state.game.ruleset.size
    stock = len(deal.stock) if deal.stock is not None else max(size - sum(map(len, hands)), 0)
    before = 0
    for finding in state.findings:
        if finding.turn is not None:
            break
        before += 1
    return _Snapshot(
        0,
        [],
        None,
        0,
        stock,
        [names(_counts(hand)) for hand in hands],
        [False] * state.n,
        None,
        len(state.game.findings) + before,
    )


def _snapshot(state: _Deal, turn: int) -> _Snapshot:
    return _Snapshot(
        turn,
        [_table_meld(meld) for meld in state.melds.values()],
        card_name(state.pile[-1]) if state.pile else None,
        len(state.pile),
        state.stock_size,
        [names(hand) for hand in state.hands],
        list(state.opened),
        state.out,
        len(state.game.findings) + len(state.findings),
    )


def _counts(cards: list[int]) -> list[int]:
    counts = [0] * (JOKER + 1)
    for card in cards:
        counts[card] += 1
    return counts


def _table_meld(meld: Meld) -> TableMeld:
    entries: list[tuple[int, int | None]] = [(card, None) for card in meld.naturals]
    entries += [(JOKER, stands) for stands in meld.stands]
    if meld.kind is Kind.RUN:
        entries = _along_the_run(entries)
    cards = [
        card_name(card) if stands is None else f"X={card_name(stands)}" for card, stands in entries
    ]
    return TableMeld(meld.number, meld.owner, cards, None if meld.kind is None else str(meld.kind))


def _along_the_run(entries: list[tuple[int, int | None]]) -> list[tuple[int, int | None]]:
    """A valid run's cards from its low end: an ace goes low where the run needs it so."""
    named = [card if stands is None else stands for card, stands in entries]
    positions = run_positions([card % 13 for card in named]) or []
    low_ace = bool(positions) and positions[0] == 0
    keyed = []
    for entry, card in zip(entries, named, strict=True):
        rank = card % 13
        if rank == ACE:
            key = 0 if low_ace else 13
            low_ace = False  # a second ace is the high one
        else:
            key = rank + 1
        keyed.append((key, entry))
    keyed.sort(key=lambda item: item[0])
    return [entry for _, entry in keyed]


def _seat_of(record: Record, source: Deal, dealer: int, turn: int) -> int | None:
    """The seat that plays ``turn``: as stated, else the next after the turn before's."""
    seat = dealer
    for played in (source.turns or [])[:turn]:
        seat = (seat + 1) % len(record.players) if played.seat is None else played.seat
    return seat if turn else None


def _state(record: Record, report: Report, deal: int, turn: int, watch: _Watch) -> TurnState:
    source = record.deals[deal - 1]
    result = report.deals[deal - 1]
    turns = len(source.turns or [])
    n = len(record.players)
    findings = report.findings
    snapshot = watch.last if turn else watch.start
    replayed = snapshot is not None and snapshot.turn == turn
    if snapshot is None:  # no turn replayed: a sheet deal, or one whose turns are empty
        hands = [names(_counts(hand)) for hand in source.hands or []]
        snapshot = _Snapshot(0, [], None, 0, 0, hands, [], None, 0)
        replayed = True
    cut = snapshot.findings
    if turn == turns:
        cut = _deal_end(findings, deal, whole=deal == len(record.deals))
    elif not replayed:  # turns after the going out: their own findings only
        while cut < len(findings) and findings[cut].deal == deal:
            at = findings[cut].turn
            if at is None or at > turn:
                break
            cut += 1
    played = source.turns[turn - 1] if source.turns and turn else None
    return TurnState(
        deal=deal,
        turn=turn,
        turns=turns,
        dealer=result.dealer,
        seat=_seat_of(record, source, result.dealer, turn),
        draw=None if played is None else played.draw,
        discard=None
        if played is None or played.discard is None
        else [card_name(card) for card in played.discard],
        melds=snapshot.melds,
        pile_top=snapshot.pile_top,
        pile=snapshot.pile,
        stock=snapshot.stock,
        hands=snapshot.hands,
        opened=snapshot.opened or [False] * n,
        out=snapshot.out,
        replayed=replayed,
        findings=findings[:cut],
    )


def _deal_end(findings: list[Finding], deal: int, *, whole: bool = False) -> int:
    """How many of the report's findings come up to the end of ``deal`` (with ``whole``,
    the game's own findings after its last deal too)."""
    if whole:
        return len(findings)
    end = 0
    for i, finding in enumerate(findings):
        if finding.deal is not None and finding.deal <= deal:
            end = i + 1
    return end
