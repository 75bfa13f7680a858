"""What the pages and the review show of a poker game: the stored report's hands beside the
record's claims, its findings at their hand, stage and action, and the table of a hand at
each moment (``replay.poker.state``), replayed from the current record.

As for the trick-taking family (``verification.selectors``), findings and recomputed results are
the stored report's, the evidence the game was judged by; the table at a moment comes from
replaying the record now, which is the same replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.errors import Rejected
from games.models import Game, GameSeat
from games.selectors import game_record_text
from replay import ENGINE_VERSION, record_json
from replay.cards import card_name
from replay.poker.parse import UNSEEN, Action
from replay.poker.rulesets import PRESETS
from replay.poker.rulesets import Game as PokerVariant
from replay.poker.state import Card, HandMoments, HandState, hand_moments
from verification.models import Finding, Report
from verification.selectors import Claim


@dataclass(frozen=True, slots=True)
class PokerHandRow:
    """One hand as recomputed, each seat's net and stack beside what the record claims."""

    number: int
    dealer: int | None  #: the club game's
    winners: list[int]
    claimed_winners: list[int] | None
    ranks: list[str | None]
    net: list[Claim]
    stacks: list[Claim]
    findings: list[Finding]

    @property
    def cells(self) -> list[tuple[Claim, Claim]]:
        """Each seat's net and stack."""
        return list(zip(self.net, self.stacks, strict=False))

    @property
    def winners_differ(self) -> bool:
        return self.claimed_winners is not None and sorted(set(self.claimed_winners)) != sorted(
            self.winners
        )


@dataclass(frozen=True, slots=True)
class PokerGame:
    game: Game
    players: list[str]
    record: Any  #: the decoded record; None when it is no JSON
    report: Report | None
    data: dict[str, Any]  #: the stored report's JSON
    findings: list[Finding]
    hands: list[PokerHandRow]
    seats: list[GameSeat]
    outdated: bool
    engine_version: str = ENGINE_VERSION

    @property
    def casino(self) -> bool:
        preset = PRESETS.get(self.game.ruleset_preset)
        return preset is not None and preset[0] is PokerVariant.CASINO

    def moments(self, hand: int) -> HandMoments | None:
        """Every moment of hand ``hand``; None when the record does not replay it."""
        return hand_moments(self.record, hand) if self.record is not None else None

    def finding_states(self) -> list[tuple[Finding, HandState | None]]:
        """Each finding with the table at its moment (None for a finding of the whole
        game, or of a record that does not replay): what a reviewer judges it by."""
        replayed: dict[int, HandMoments | None] = {}
        out = []
        for finding in self.findings:
            hand, stage, action = finding.deal, finding.trick, finding.play
            state = None
            if hand is not None:
                if hand not in replayed:
                    replayed[hand] = self.moments(hand)
                moments = replayed[hand]
                state = None if moments is None else moments.find(stage, action)
            out.append((finding, state))
        return out


def poker_game(*, game: Game) -> PokerGame:
    report = Report.objects.filter(game=game, current=True).first()
    findings = list(Finding.objects.filter(report=report).order_by("pk")) if report else []
    try:
        record = record_json(game_record_text(game=game))
    except (ValueError, RecursionError):
        record = None
    data = report.as_dict() if report is not None else {}
    seats = list(GameSeat.objects.filter(game=game).order_by("seat"))
    players = [s.name for s in seats]
    claimed = record.get("hands") if isinstance(record, dict) else None
    rows = []
    for index, hand in enumerate(_list(data.get("hands"))):
        claims = claimed[index] if isinstance(claimed, list) and index < len(claimed) else {}
        claims = claims if isinstance(claims, dict) else {}
        number = index + 1
        rows.append(
            PokerHandRow(
                number,
                hand.get("dealer"),
                list(hand.get("winners") or []),
                _ints(claims.get("winners")),
                list(hand.get("ranks") or []),
                _claims(hand.get("net"), claims.get("net")),
                _claims(hand.get("stacks"), claims.get("stacks")),
                [f for f in findings if f.deal == number],
            )
        )
    outdated = report is not None and report.engine_version != ENGINE_VERSION
    return PokerGame(game, players, record, report, data, findings, rows, seats, outdated)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _ints(value: Any) -> list[int] | None:
    return [v for v in value if isinstance(v, int)] if isinstance(value, list) else None


def _claims(recomputed: Any, claimed: Any) -> list[Claim]:
    values = _list(recomputed)
    said = _list(claimed)
    out = []
    for seat, value in enumerate(values):
        claim = said[seat] if seat < len(said) else None
        out.append(Claim(claim, value, claim is not None and claim != value))
    return out


__all__ = ["HandState", "PokerGame", "PokerHandRow", "poker_game"]


def poker_state_data(
    *, game: Game, hand: int, stage: int | None, action: int | None
) -> dict[str, Any]:
    """The table of a stored poker game at a moment of ``hand`` (``HandMoments.find``:
    without ``stage`` the hand's end, without ``action`` the stage's last moment), as
    ``GET /api/games/{id}/replay/`` answers it; a moment the record lacks is refused where
    the query names it."""
    try:
        record = record_json(game_record_text(game=game))
    except (ValueError, RecursionError):
        record = None
    moments = None if record is None else hand_moments(record, hand)
    if moments is None:
        raise Rejected.one(
            f"hand {hand} does not exist: the game has hands 1 to {game.deals_count}",
            path="/hand",
            expected=f"1…{game.deals_count}",
            actual=hand,
        )
    state = moments.find(stage, action)
    if state is None:
        name, value = ("stage", stage) if moments.find(stage, None) is None else ("action", action)
        raise Rejected.one(
            f"hand {hand} has no {name} {value} at that place", path=f"/{name}", actual=value
        )
    return {
        "hand": state.hand,
        "stage": state.stage,
        "action": state.action,
        "casino": state.casino,
        "dealer": state.dealer,
        "pot": state.pot,
        "current": state.current,
        "acted": _action(state.acted),
        "joker": state.joker,
        "dealer_cards": None if state.dealer_cards is None else _cards(state.dealer_cards),
        "dealer_rank": state.dealer_rank,
        "dealer_qualifies": state.dealer_qualifies,
        "pots": None if state.pots is None else [p.to_dict() for p in state.pots],
        "seats": [
            {
                "seat": s.seat,
                "dealt": s.dealt,
                "folded": s.folded,
                "cards": _cards(s.cards),
                "stack": s.stack,
                "bet": s.bet,
                "paid": s.paid,
                "all_in": s.all_in,
                "last": _action(s.last),
                "category": s.category,
                "net": s.net,
                "won": s.won,
            }
            for s in state.seats
        ],
    }


def _cards(cards: Sequence[Card]) -> list[dict[str, Any]]:
    return [{"card": c.name, "up": c.up} for c in cards]


def _action(action: Action | None) -> dict[str, Any] | None:
    """A written action as the record writes it (POKER-FORMAT, "The record")."""
    if action is None:
        return None
    written: dict[str, Any] = {"seat": action.seat, "action": str(action.act)}
    if action.amount is not None:
        written["amount"] = action.amount
    if action.cards or action.new:
        written["cards"] = [_name(c) for c in action.cards]
        written["new"] = [_name(c) for c in action.new]
    return written


def _name(card: int) -> str:
    return "??" if card == UNSEEN else card_name(card)
