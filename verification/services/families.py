"""What each game family's report gives the service: the game's columns, its seats'
results and the rows its statistics read.

The store (``services.store``) and the re-verification handle every family alike through
these functions; only here does a family's report shape show. The trick-taking family's
seat-deal rows are ``rows.seat_deal_rows``; the rummy's and the poker's are made here, a
row per seat per deal (per seat dealt in, per hand), as plain tuples in their ``*_FIELDS``
order for ``core.bulk``.
"""

from __future__ import annotations

from typing import Any

from replay import AnyReport, PokerReport, Report, RummyReport, family_of, standings
from verification.services.rows import Standings, score_value


def report_audit(report: AnyReport) -> str:
    """The report's ``audit``: a poker record is always replayed in full and says none."""
    return "full" if isinstance(report, PokerReport) else str(report.audit)


def report_rounds(report: AnyReport) -> int:
    """The deals of the report, or the poker's hands: what ``Game.deals_count`` counts."""
    return len(report.hands) if isinstance(report, PokerReport) else len(report.deals)


def report_standings(report: AnyReport) -> Standings:
    """The seats' results by the family's measure (``replay.standings``): a poker
    seat's total is its net over the record's hands. The trick-taking family's winners are
    its report's, which names them."""
    family = family_of(report)
    if isinstance(report, PokerReport):
        seats = range(len(report.players))
        totals: list[Any] = [sum(hand.net[seat] for hand in report.hands) for seat in seats]
    else:
        totals = report.totals or [0] * len(report.players)
    ranks, winners = standings(family, totals)
    if isinstance(report, Report):
        winners = set(report.winners)
    return Standings(totals, ranks, winners)


RUMMY_SEAT_DEAL_FIELDS = (
    "game_id",
    "seat",
    "number",
    "points",
    "running",
    "out",
    "out_round",
    "out_jokers",
    "opened",
    "opened_round",
    "opening",
    "full",
)


def rummy_seat_deal_rows(game_id: int, report: RummyReport) -> list[tuple[Any, ...]]:
    """One tuple per seat per deal, in ``RUMMY_SEAT_DEAL_FIELDS`` order."""
    n = len(report.players)
    rows = []
    for d in report.deals:
        full = d.openings is not None
        openings = d.openings or [None] * n
        out_round = None if d.out_turn is None else _round(d.out_turn, n)
        for seat in range(n):
            out = seat == d.out
            opening = openings[seat]
            rows.append(
                (
                    game_id,
                    seat,
                    d.number,
                    score_value(d.points[seat]),
                    score_value(d.running[seat]),
                    out,
                    out_round if out else None,
                    d.out_jokers if out else 0,
                    opening is not None,
                    None if opening is None else _round(opening[0], n),
                    None if opening is None else opening[1],
                    full,
                )
            )
    return rows


def _round(turn: int, seats: int) -> int:
    """The round of a deal's ``turn`` (1-based): every seat has one turn a round."""
    return (turn - 1) // seats + 1


POKER_SEAT_HAND_FIELDS = (
    "game_id",
    "seat",
    "number",
    "net",
    "won",
    "showdown",
    "category",
    "folded",
)


def poker_seat_hand_rows(game_id: int, report: PokerReport) -> list[tuple[Any, ...]]:
    """One tuple per seat dealt into each hand, in ``POKER_SEAT_HAND_FIELDS`` order."""
    rows = []
    for h in report.hands:
        won = set(h.winners)
        dealt = h.dealt or [True] * len(h.net)
        folded = h.folded or [None] * len(h.net)
        for seat, net in enumerate(h.net):
            if not dealt[seat]:
                continue
            rank = h.ranks[seat]
            rows.append(
                (
                    game_id,
                    seat,
                    h.number,
                    net,
                    seat in won,
                    rank is not None,
                    rank or "",
                    folded[seat],
                )
            )
    return rows
