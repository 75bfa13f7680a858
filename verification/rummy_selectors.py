"""Reads of a stored rummy game (docs/rummy.md): its score sheet, claimed beside recomputed,
and the table after any turn, for the game's page and the reviewer's.

The sheet's recomputed values and the findings are the stored report's, the evidence the
game was judged by; the table at a turn comes from replaying the record now
(``replay.rummy.state``), as the trick-taking family's table does.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from core.errors import Rejected, finding_dict
from games.models import Game
from games.selectors import game_record_text, stored_rulesets
from replay import ENGINE_VERSION, NoSuchMoment, record_json
from replay.rummy.state import TableMeld, TurnState, state_after
from verification.models import Finding, Report
from verification.selectors import Claim, claim_of, item_at, list_of, seat_claim

#: The reviewer's page shows the table at the turns of at most this many findings.
REVIEW_MOMENTS = 30


@dataclass(frozen=True, slots=True)
class RummySeatResult:
    """One seat in one deal: the deal's points and the running total, claimed beside
    recomputed, and the cards left in hand at the end (None where unknown)."""

    seat: int
    player: str
    points: Claim
    running: Claim
    left: list[str] | None


@dataclass(frozen=True, slots=True)
class RummyDealView:
    number: int
    dealer: int
    dealer_player: str
    out: Claim  #: the seat that went out (None: nobody did)
    out_player: str | None  #: by the replay
    out_jokers: int
    turns: int  #: the turns the record gives; 0 in a deal audited from the sheet
    seats: list[RummySeatResult]
    findings: list[Finding]  #: every finding located in this deal

    @property
    def differs(self) -> bool:
        return self.out.differs or any(s.points.differs or s.running.differs for s in self.seats)

    @property
    def offending(self) -> bool:
        return bool(self.findings)


@dataclass(frozen=True, slots=True)
class RummySheet:
    record: dict[str, Any]  #: the record's JSON; empty when it is not an object
    players: list[str]
    deals: list[RummyDealView]
    totals: list[tuple[str, Claim]]


def rummy_sheet(*, record: Any, data: dict[str, Any], findings: list[Finding]) -> RummySheet:
    """The score sheet of a rummy record beside its report (findings as stored rows: their
    ``trick`` and ``play`` columns hold the turn and the action)."""
    if not isinstance(record, dict):
        record = {}
    players = [p if isinstance(p, str) else str(p) for p in list_of(record.get("players"))]
    by_deal: dict[int | None, list[Finding]] = defaultdict(list)
    for finding in findings:
        by_deal[finding.deal].append(finding)
    claimed_deals = list_of(record.get("deals"))
    n = len(players)
    deals = []
    for index, result in enumerate(list_of(data.get("deals"))):
        claimed = claimed_deals[index] if index < len(claimed_deals) else {}
        if not isinstance(claimed, dict):
            claimed = {}
        number, dealer, out = result["number"], result["dealer"], result.get("out")
        left = result.get("left")
        seats = [
            RummySeatResult(
                seat,
                name,
                seat_claim(claimed, result, "points", seat),
                seat_claim(claimed, result, "running", seat),
                item_at(left, seat) if isinstance(left, list) else None,
            )
            for seat, name in enumerate(players)
        ]
        deals.append(
            RummyDealView(
                number=number,
                dealer=dealer,
                dealer_player=players[dealer] if 0 <= dealer < n else str(dealer),
                out=claim_of(claimed.get("out"), out),
                out_player=players[out] if isinstance(out, int) and 0 <= out < n else None,
                out_jokers=result.get("out_jokers") or 0,
                turns=len(list_of(claimed.get("turns"))),
                seats=seats,
                findings=by_deal.get(number, []),
            )
        )
    totals = [
        (name, claim_of(item_at(record.get("totals"), seat), item_at(data.get("totals"), seat)))
        for seat, name in enumerate(players)
    ]
    return RummySheet(record, players, deals, totals)


def rummy_state(*, record: Any, deal: int, turn: int | None) -> TurnState | None:
    """The table of ``deal`` after ``turn`` (None: its last); None when the record does not
    replay now. A moment the record lacks raises ``NoSuchMoment``."""
    state, _report, _findings = state_after(record, deal, turn, stored_rulesets())
    return state


def stored_record(*, game: Game) -> Any:
    """The game's current record as JSON, or None when its text is no JSON."""
    try:
        return record_json(game_record_text(game=game))
    except (ValueError, RecursionError):
        return None


@dataclass(frozen=True, slots=True)
class ReviewMoment:
    """A finding and the table at its turn, with the seats' names: ``state`` is None for a
    finding of the whole game or deal, or one past ``REVIEW_MOMENTS``."""

    finding: Finding
    state: TurnState | None
    player: str | None = None  #: who played the turn
    melds: list[tuple[TableMeld, str]] = field(default_factory=list)  #: with who laid each
    hands: list[tuple[str, list[str]]] = field(default_factory=list)  #: (player, cards)


@dataclass(frozen=True, slots=True)
class RummyReview:
    """What the reviewer sees of a rummy game: the sheet, and each finding's table."""

    game: Game
    report: Report | None
    sheet: RummySheet
    findings: list[ReviewMoment]
    outdated: bool
    engine_version: str = ENGINE_VERSION

    @property
    def players(self) -> list[str]:
        return self.sheet.players

    @property
    def totals(self) -> list[tuple[str, Claim]]:
        return self.sheet.totals


def _name(players: list[str], seat: int | None) -> str | None:
    if seat is None:
        return None
    return players[seat] if 0 <= seat < len(players) else str(seat)


def _moment(finding: Finding, state: TurnState | None, players: list[str]) -> ReviewMoment:
    if state is None:
        return ReviewMoment(finding, None)
    return ReviewMoment(
        finding,
        state,
        _name(players, state.seat),
        [(meld, _name(players, meld.owner) or "") for meld in state.melds],
        [(_name(players, seat) or "", hand) for seat, hand in enumerate(state.hands)],
    )


def rummy_review(*, game: Game) -> RummyReview:
    report = Report.objects.filter(game=game, current=True).first()
    findings = list(Finding.objects.filter(game=game, report__current=True).order_by("pk"))
    record = stored_record(game=game)
    data = report.as_dict() if report is not None else {}
    sheet = rummy_sheet(record=record, data=data, findings=findings)
    moments: list[ReviewMoment] = []
    for index, finding in enumerate(findings):
        state = None
        if index < REVIEW_MOMENTS and finding.deal is not None and finding.trick is not None:
            try:
                state = rummy_state(record=record, deal=finding.deal, turn=finding.trick)
            except NoSuchMoment:
                state = None  # the record changed under the report: re-verify it
        moments.append(_moment(finding, state, sheet.players))
    outdated = report is not None and report.engine_version != ENGINE_VERSION
    return RummyReview(game, report, sheet, moments, outdated)


def rummy_state_data(*, game: Game, deal: int, turn: int | None) -> dict[str, Any]:
    """The table of a stored rummy game after ``turn`` of ``deal`` (None: the deal's end), as
    ``GET /api/games/{id}/replay/`` answers it; a moment the record lacks is refused where
    the query names it, a record that does not replay with its findings."""
    try:
        state, _report, findings = state_after(
            stored_record(game=game), deal, turn, stored_rulesets()
        )
    except NoSuchMoment as missing:
        raise Rejected.one(
            str(missing), path=f"/{missing.name}", expected=missing.expected, actual=missing.actual
        ) from None
    if state is None:
        raise Rejected([finding_dict(f) for f in findings])
    return {
        "deal": state.deal,
        "turn": state.turn,
        "turns": state.turns,
        "dealer": state.dealer,
        "seat": state.seat,
        "draw": state.draw,
        "discard": state.discard,
        "melds": [
            {"number": m.number, "owner": m.owner, "cards": m.cards, "kind": m.kind}
            for m in state.melds
        ],
        "pile_top": state.pile_top,
        "pile": state.pile,
        "stock": state.stock,
        "hands": state.hands,
        "opened": state.opened,
        "out": state.out,
        "replayed": state.replayed,
        "findings": [finding_dict(f) for f in state.findings],
    }
