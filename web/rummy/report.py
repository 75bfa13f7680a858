"""A rummy report as the verify page shows it: the verdict, the findings in words at their
deal, turn and action, the totals, where the lowest wins, and the score sheet (each deal as
recomputed beside the record's claims, ``verification.rummy_selectors.rummy_sheet``, as a stored
game's page shows it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replay import Family, standings
from verification.rummy_selectors import RummySheet, rummy_sheet
from web.findings import Written, claim_at, claimed_values, findings_written
from web.reports import Standing
from web.rummy.findings import RUMMY_PLACES, rummy_catalogue


@dataclass(frozen=True, slots=True)
class RummyView:
    verdict: str
    ruleset: str
    players: list[str]
    findings: list[Written]
    standings: list[Standing]
    sheet: RummySheet  #: each deal as recomputed, beside the record's claims


def rummy_view(*, record: Any, report: dict[str, Any], players: list[str]) -> RummyView:
    catalogue = rummy_catalogue(report.get("ruleset"))
    findings = findings_written(report.get("findings", []), RUMMY_PLACES, catalogue, players)
    ruleset = report.get("ruleset") or {}
    return RummyView(
        verdict=str(report.get("verdict", "")),
        ruleset=str(ruleset.get("preset", "")),
        players=players,
        findings=findings,
        standings=_standings(report, players, claimed_values(findings, "result.total")),
        sheet=rummy_sheet(record=record, data=report, findings=[]),
    )


def _standings(
    report: dict[str, Any], players: list[str], claims: dict[tuple[Any, Any], Any]
) -> list[Standing]:
    """Places by the totals, the lowest first (``replay.standings``); none for a
    malformed report."""
    totals = report.get("totals")
    if not isinstance(totals, list) or len(totals) != len(players):
        return []
    winners = set(report.get("winners", []))
    places, _ = standings(Family.RUMMY, totals)
    rows = [
        Standing(
            seat,
            name,
            total,
            claim_at(claims, (None, seat), total),
            places[seat],
            seat in winners,
        )
        for seat, (name, total) in enumerate(zip(players, totals, strict=True))
    ]
    return sorted(rows, key=lambda s: (s.place, s.seat))
