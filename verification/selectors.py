"""Reads that need both the engine and the database: what a reviewer sees of one game, and
the table at one moment of it.

``game_review`` puts side by side what the stored record claims (``taken``, ``scores``,
``running``, ``totals``) and what the current report recomputed, and lays out every trick
with the seat of each play and the trick's winner, so that a finding's deal/trick/play
location (docs/format.md) points at a visible play.

The findings and recomputed results are the stored report's, the evidence the game was
judged by. Seats and winners of the plays come from replaying the record now: the stored
report does not keep them, and a play belongs to the seat the trick winners make it (the
leader is the previous trick's winner, RULES §4), exactly as ``replay.state_at``
places it.
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db.models import Count

from core.errors import Rejected, finding_dict
from games.models import Game
from games.selectors import game_record_text, stored_rulesets
from replay import (
    ENGINE_VERSION,
    NoSuchMoment,
    record_json,
    state_at,
    verify_tricks,
)
from replay.cards import PLAY_CODES, play_name
from verification.json_codec import record_loads
from verification.models import Finding, Report

Location = tuple[int | None, int | None, int | None]  #: deal, trick, play


@dataclass(frozen=True, slots=True)
class Claim:
    """One value of the sheet: what the record claims beside what the replay computed.

    ``claimed`` is None where the record claims nothing (a sheet without ``scores``).
    """

    claimed: Any
    recomputed: Any
    differs: bool = False


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat in one deal: its bid and the three claims a score sheet makes."""

    seat: int
    player: str
    bid: Any
    taken: Claim
    score: Claim
    running: Claim


@dataclass(frozen=True, slots=True)
class PlayView:
    number: int
    seat: int
    player: str
    #: Compact notation (docs/format.md "Cards and plays"), or the entry as written if unreadable.
    play: str
    findings: list[Finding] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TrickView:
    number: int
    leader: int
    leader_player: str
    plays: list[PlayView]
    winner: int | None  #: None for an empty trick, which has no winner
    winner_player: str | None
    findings: list[Finding] = field(default_factory=list)  #: about the trick, not one play


@dataclass(frozen=True, slots=True)
class DealView:
    number: int
    kind: str
    cards: int
    dealer: Claim
    dealer_player: str
    trump: str | None
    seats: list[SeatResult]
    tricks: list[TrickView]  #: empty when the deal is audited from the sheet
    findings: list[Finding]  #: every finding located in this deal
    notes: list[Finding]  #: those not shown at one of ``tricks`` or their plays
    differs: bool  #: a claim of this deal differs from the replay
    #: Each seat's hand as dealt, in compact notation: the record's, else the cards the seat
    #: played (docs/format.md: without hands, a hand is what it plays); empty in a sheet deal.
    hands: list[tuple[str, list[str]]] = field(default_factory=list)  #: (player, cards)
    hands_played: bool = False  #: ``hands`` come from the plays

    @property
    def offending(self) -> bool:
        return bool(self.findings)


@dataclass(frozen=True, slots=True)
class GameReview:
    game: Game
    players: list[str]
    report: Report | None
    findings: list[Finding]
    deals: list[DealView]
    totals: list[tuple[str, Claim]]
    outdated: bool  #: the stored report was made by another engine version
    engine_version: str = ENGINE_VERSION


@dataclass(frozen=True, slots=True)
class Sheet:
    """A record's score sheet beside its report: the claims of every deal and the totals."""

    record: dict[str, Any]  #: the record's JSON; empty when it is not an object
    players: list[str]
    deals: list[DealView]
    totals: list[tuple[str, Claim]]


def game_review(*, game: Game) -> GameReview:
    """Everything the review page shows of a game, from its current record and report."""
    report = Report.objects.filter(game=game, current=True).first()
    findings = list(Finding.objects.filter(game=game, report__current=True).order_by("pk"))
    try:
        record = record_json(game_record_text(game=game))
    except (ValueError, RecursionError):
        record = None
    data = report.as_dict() if report is not None else {}
    sheet = record_sheet(record=record, data=data, findings=findings)
    outdated = report is not None and report.engine_version != ENGINE_VERSION
    return GameReview(game, sheet.players, report, findings, sheet.deals, sheet.totals, outdated)


def record_sheet(*, record: Any, data: dict[str, Any], findings: list[Finding]) -> Sheet:
    """The sheet of any record and its report, stored or not: a record verified without
    being stored has its findings as unsaved ``Finding`` rows."""
    if not isinstance(record, dict):
        record = {}
    players = [p if isinstance(p, str) else str(p) for p in list_of(record.get("players"))]
    deals = _deals(record, players, data, findings)
    totals = [
        (name, claim_of(item_at(record.get("totals"), seat), item_at(data.get("totals"), seat)))
        for seat, name in enumerate(players)
    ]
    return Sheet(record, players, deals, totals)


def game_state(
    *, game: Game, deal: int, trick: int | None = None, play: int | None = None
) -> dict[str, Any]:
    """The table at one moment of a trick-taking game's current record
    (``replay.state_at``); the rummy's and the poker's are ``rummy_selectors`` and
    ``poker_selectors``'."""
    value = record_loads(game_record_text(game=game))
    try:
        state, findings = state_at(value, deal, trick, play, stored_rulesets())
    except NoSuchMoment as missing:
        # The query asks for too much, not the record is wrong: located in the query.
        raise Rejected.one(
            str(missing),
            path=f"/{missing.name}",
            expected=missing.expected,
            actual=missing.actual,
        ) from None
    if state is None:
        raise Rejected([finding_dict(f) for f in findings])
    return state


def _deals(
    record: dict[str, Any], players: list[str], data: dict[str, Any], findings: list[Finding]
) -> list[DealView]:
    recomputed = list_of(data.get("deals"))
    if not recomputed:
        return []  # a malformed record: nothing was replayed
    by_deal: dict[int | None, list[Finding]] = defaultdict(list)
    for finding in findings:
        by_deal[finding.deal].append(finding)
    replayed = _trick_winners(record)
    if replayed is None:
        return []  # the record no longer replays (a stored ruleset it names changed)
    winners, first_leader_is_dealer = replayed
    claimed_deals = list_of(record.get("deals"))
    n = len(players)
    views = []
    for index, result in enumerate(recomputed):
        number = result["number"]
        claimed = claimed_deals[index] if index < len(claimed_deals) else {}
        if not isinstance(claimed, dict):
            claimed = {}
        seats = [
            SeatResult(
                seat,
                name,
                item_at(result.get("bids"), seat),
                seat_claim(claimed, result, "taken", seat),
                seat_claim(claimed, result, "scores", seat),
                seat_claim(claimed, result, "running", seat),
            )
            for seat, name in enumerate(players)
        ]
        dealer = result["dealer"]
        first = dealer if first_leader_is_dealer else (dealer + 1) % n
        located = by_deal.get(number, [])
        won, counted = winners.get(number, ([], {}))
        tricks = _tricks(
            number, list_of(claimed.get("tricks")), players, first, won, counted, located
        )
        shown = {id(f) for t in tricks for f in t.findings} | {
            id(f) for t in tricks for p in t.plays for f in p.findings
        }
        dealer_claim = claim_of(claimed.get("dealer"), dealer)
        views.append(
            DealView(
                number=number,
                kind=str(claimed.get("kind", "regular")),
                cards=claimed.get("cards", 0),
                dealer=dealer_claim,
                dealer_player=players[dealer] if 0 <= dealer < n else str(dealer),
                trump=result.get("trump"),
                seats=seats,
                tricks=tricks,
                findings=located,
                notes=[f for f in located if id(f) not in shown],
                differs=dealer_claim.differs
                or any(s.taken.differs or s.score.differs or s.running.differs for s in seats),
                **_hands(claimed, tricks, players),
            )
        )
    return views


def _hands(deal: dict[str, Any], tricks: list[TrickView], players: list[str]) -> dict[str, Any]:
    hands = list_of(deal.get("hands"))
    if len(hands) == len(players) and all(isinstance(hand, list) for hand in hands):
        cards = [[_play_text(card) for card in hand] for hand in hands]
        return {"hands": list(zip(players, cards, strict=True))}
    if not tricks:
        return {}
    played = [
        (name, [p.play for t in tricks for p in t.plays if p.seat == seat])
        for seat, name in enumerate(players)
    ]
    return {"hands": played, "hands_played": True}


def _trick_winners(
    record: dict[str, Any],
) -> tuple[dict[int, tuple[list[int], dict[int, int]]], bool] | None:
    """Each deal's trick winners and its tricks counted from their stated leader (RULES
    §10.11), by deal number, and whether the dealer leads the first trick; None when the
    record cannot be replayed now."""
    report = verify_tricks(record, stored_rulesets())
    if report.ruleset is None or not report.deals:
        return None
    winners = {d.number: (d.trick_winners, d.counted_from or {}) for d in report.deals}
    return winners, report.ruleset.first_leader_is_dealer


def _tricks(
    deal: int,
    tricks: list[Any],
    players: list[str],
    leader: int,
    winners: Sequence[int],
    counted: dict[int, int],
    findings: list[Finding],
) -> list[TrickView]:
    n = len(players)
    at: dict[Location, list[Finding]] = defaultdict(list)
    for finding in findings:
        at[(finding.deal, finding.trick, finding.play)].append(finding)
    views = []
    won = iter(winners)
    for t, trick in enumerate(tricks, 1):
        plays = list_of(trick.get("plays") if isinstance(trick, dict) else trick)
        leader = counted.get(t - 1, leader)  # led out of turn, as the replay counted it
        # An empty trick has no winner and keeps its leader, as the replay has it.
        winner = next(won, None) if plays else None
        seats = [(leader + k) % n for k in range(len(plays))]
        views.append(
            TrickView(
                number=t,
                leader=leader,
                leader_player=players[leader],
                plays=[
                    PlayView(k, seat, players[seat], _play_text(value), at.get((deal, t, k), []))
                    for k, (seat, value) in enumerate(zip(seats, plays, strict=True), 1)
                ],
                winner=winner,
                winner_player=None if winner is None else players[winner],
                findings=at.get((deal, t, None), []),
            )
        )
        if winner is not None:
            leader = winner
    return views


_SUFFIXES = {"high": "+", "low": "-", "plain": "=", "lead_highest": "+", "lead_lowest": "-"}


def _play_text(value: Any) -> str:
    """A play in the compact notation, whether the record wrote it compact or as an object."""
    if isinstance(value, dict):
        card, joker, suit = value.get("card"), value.get("joker"), value.get("suit")
        text = str(card)
        if joker in _SUFFIXES:
            text += _SUFFIXES[joker]
            if str(joker).startswith("lead_"):
                text += "*" if suit in ("trump", "*") else str(suit)
        elif joker is not None:
            return json.dumps(value, ensure_ascii=False)
        value = text
    if isinstance(value, str):
        return _compact(value)
    return json.dumps(value, ensure_ascii=False)


@functools.lru_cache(maxsize=4096)
def _compact(value: str) -> str:
    """A play written as text, canonically; a game writes the same few plays hundreds of
    times."""
    code = PLAY_CODES.get(value.strip().upper())
    return play_name(code) if code is not None else value


def claim_of(claimed: Any, recomputed: Any) -> Claim:
    differs = claimed is not None and recomputed is not None and not _same(claimed, recomputed)
    return Claim(claimed, recomputed, differs)


def _same(a: Any, b: Any) -> bool:
    """Equal as numbers where both are numbers: a sheet's ``7.50`` is the replay's ``7.5``."""
    try:
        return Decimal(str(a)) == Decimal(str(b))
    except InvalidOperation:
        return bool(a == b)


def seat_claim(claimed: Any, recomputed: Any, key: str, seat: int) -> Claim:
    """A seat's value under ``key`` in a claimed deal beside the recomputed deal."""
    return claim_of(item_at(claimed.get(key), seat), item_at(recomputed.get(key), seat))


def list_of(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def item_at(values: Any, index: int) -> Any:
    return values[index] if isinstance(values, list) and 0 <= index < len(values) else None


def finding_code_counts(*, limit: int = 10) -> list[tuple[str, int, int]]:
    """The most frequent finding codes of the current reports: code, findings, games."""
    rows = (
        Finding.objects.filter(report__current=True)
        .order_by()
        .values("code")
        .annotate(n=Count("pk"), games=Count("game", distinct=True))
        .order_by("-n", "code")
        .values_list("code", "n", "games")[:limit]
    )
    return list(rows)
