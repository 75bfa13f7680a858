"""A report as the pages show it, for a stored game or a record verified and not stored: the
verdict, each seat's total and place, the findings in the reader's language with the moment
each points at, the score sheet and the replay's timeline."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from verification.models import Finding
from verification.selectors import Claim, Sheet, record_sheet
from web import steps
from web.findings import finding_text, severity_text, where_text
from web.replays import Moment, moment, timeline

FINDING_FIELDS = (
    "code",
    "severity",
    "deal",
    "trick",
    "play",
    "seat",
    "player",
    "message",
    "expected",
    "actual",
    "path",
)


@dataclass(frozen=True, slots=True)
class FindingView:
    finding: Finding
    text: str
    severity: str
    where: str
    position: steps.Position | None  #: its moment in the replay; None for the whole game
    query: str | None  #: that moment's address


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat at the end: its total (as recomputed, or corrected by a reviewer) and place."""

    seat: int
    name: str
    total: Any
    claim: Claim | None  #: the record's claimed total beside the recomputed one
    place: int
    winner: bool
    player_id: int | None = None  #: a stored game's player at the seat


@dataclass(frozen=True, slots=True)
class ReportView:
    verdict: str
    audit: str
    ruleset: str
    sheet: Sheet
    standings: list[Standing]
    findings: list[FindingView]
    line: dict[str, Any]  #: the replay's timeline (``web.replays.timeline``)

    @property
    def players(self) -> list[str]:
        return self.sheet.players


def unsaved_findings(report: dict[str, Any]) -> list[Finding]:
    """A report's findings as ``Finding`` rows that are never saved, so that a record
    verified without storing it is shown by the same code as a stored game."""
    return [Finding(**{k: f.get(k) for k in FINDING_FIELDS}) for f in report.get("findings", [])]


def finding_position(finding: Finding, line: dict[str, Any]) -> steps.Position | None:
    deal = finding.deal
    if deal is None or not 1 <= deal <= len(line["deals"]):
        return None
    tricks = line["deals"][deal - 1]["tricks"]
    if finding.trick is None or not tricks or not 1 <= finding.trick <= len(tricks):
        return steps.end(line, deal)
    count = len(tricks[finding.trick - 1]["plays"])
    play = count if finding.play is None else min(finding.play, count)
    return (deal, finding.trick, play)


def report_view(
    *, record: Any, report: dict[str, Any], findings: list[Finding], seats: Any = None
) -> ReportView:
    """The page's view of a report; ``seats`` are a stored game's ``GameSeat`` rows, whose
    totals a reviewer may have corrected (else places come from the recomputed totals)."""
    sheet = record_sheet(record=record, data=report, findings=findings)
    line = timeline(sheet)
    players = sheet.players
    views = []
    for finding in findings:
        position = finding_position(finding, line)
        views.append(
            FindingView(
                finding,
                str(finding_text(finding, players)),
                severity_text(finding.severity),
                where_text(finding),
                position,
                None if position is None else steps.query(line, position),
            )
        )
    ruleset = report.get("ruleset") or {}
    return ReportView(
        verdict=str(report.get("verdict", "")),
        audit=str(report.get("audit", "")),
        ruleset=str(ruleset.get("preset", "")) if isinstance(ruleset, dict) else "",
        sheet=sheet,
        standings=_standings(sheet, seats),
        findings=views,
        line=line,
    )


def stored_standings(totals: Sequence[tuple[str, Claim]], seats: Iterable[Any]) -> list[Standing]:
    """A stored game's seats (``GameSeat`` rows), best place first: places as stored, by the
    family's measure and as a reviewer may have corrected them, each total beside the
    record's claimed one (``totals``, the sheet's)."""
    claims = dict(enumerate(claim for _, claim in totals))
    stored = [
        Standing(
            s.seat,
            s.name,
            plain_total(s.total),
            claims.get(s.seat),
            s.place,
            s.winner,
            s.player_id,
        )
        for s in seats
    ]
    return sorted(stored, key=lambda s: (s.place, s.seat))


def _standings(sheet: Sheet, seats: Any) -> list[Standing]:
    if seats is not None:
        return stored_standings(sheet.totals, seats)
    totals = [_number(claim.recomputed) for _, claim in sheet.totals]
    known = sorted({t for t in totals if t is not None}, reverse=True)
    best = known[0] if known else None
    computed = [
        Standing(
            seat,
            name,
            claim.recomputed,
            claim,
            1 + sum(1 for t in totals if t is not None and total is not None and t > total),
            total is not None and total == best,
        )
        for seat, ((name, claim), total) in enumerate(zip(sheet.totals, totals, strict=True))
    ]
    return sorted(computed, key=lambda s: (s.place, s.seat))


def plain_total(value: Decimal) -> int | Decimal:
    """A stored total as players write it: 5, or 7.5 (not 7.5000)."""
    return int(value) if value == value.to_integral_value() else value.normalize()


def _number(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value)) if value is not None else None
    except InvalidOperation:
        return None


def moment_or_start(
    view: ReportView, deal: int | None, trick: int | None, play: int | None
) -> Moment | None:
    """The moment an address asks for (``NoMoment`` if the game lacks it); None for a game
    without deals, which has no table to show."""
    if not view.line["deals"] and deal is None:
        return None
    return moment(view.line, deal, trick, play)
