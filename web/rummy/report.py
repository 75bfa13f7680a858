"""A rummy report as the pages show it: the verdict, the findings in words at their deal,
turn and action, each deal as recomputed (who went out, each player's points and running
total) and the totals, where the lowest wins.

Built from the report's JSON and the players' names, so a page of a stored game can show one
as the verify page does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replay.selectors import Claim
from web.findings import Written, claimed_values, findings_written
from web.reports import Standing
from web.rummy.findings import RUMMY_PLACES, rummy_catalogue


@dataclass(frozen=True, slots=True)
class RummyDeal:
    number: int
    dealer: str
    out: str | None  #: the player who went out; None: no one did
    out_jokers: int
    seats: list[tuple[Claim, Claim]]  #: each player's points and running total


@dataclass(frozen=True, slots=True)
class RummyView:
    verdict: str
    ruleset: str
    players: list[str]
    findings: list[Written]
    standings: list[Standing]
    deals: list[RummyDeal]


def _name(players: list[str], seat: Any) -> str:
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else str(seat)


def _claim(claims: dict[tuple[Any, Any], Any], where: tuple[Any, Any], value: Any) -> Claim:
    if where in claims:
        return Claim(claims[where], value, differs=True)
    return Claim(value, value)


def rummy_view(*, report: dict[str, Any], players: list[str]) -> RummyView:
    catalogue = rummy_catalogue(report.get("ruleset"))
    findings = findings_written(report.get("findings", []), RUMMY_PLACES, catalogue, players)
    points = claimed_values(findings, "result.points")
    running = claimed_values(findings, "result.running")
    deals = [
        RummyDeal(
            deal["number"],
            _name(players, deal["dealer"]),
            None if deal["out"] is None else _name(players, deal["out"]),
            deal["out_jokers"],
            [
                (
                    _claim(points, (deal["number"], seat), p),
                    _claim(running, (deal["number"], seat), r),
                )
                for seat, (p, r) in enumerate(zip(deal["points"], deal["running"], strict=True))
            ],
        )
        for deal in report.get("deals", [])
    ]
    ruleset = report.get("ruleset") or {}
    return RummyView(
        verdict=str(report.get("verdict", "")),
        ruleset=str(ruleset.get("preset", "")),
        players=players,
        findings=findings,
        standings=_standings(report, players, claimed_values(findings, "result.total")),
        deals=deals,
    )


def _standings(
    report: dict[str, Any], players: list[str], claims: dict[tuple[Any, Any], Any]
) -> list[Standing]:
    """Places by the totals, the lowest first (RUMMY §8); none for a malformed report."""
    totals = report.get("totals")
    if not isinstance(totals, list) or len(totals) != len(players):
        return []
    winners = set(report.get("winners", []))
    standings = [
        Standing(
            seat,
            name,
            total,
            _claim(claims, (None, seat), total),
            1 + sum(1 for other in totals if other < total),
            seat in winners,
        )
        for seat, (name, total) in enumerate(zip(players, totals, strict=True))
    ]
    return sorted(standings, key=lambda s: (s.place, s.seat))
