"""The report of a rummy record (docs/rummy.md "The report"): the shape every family's
report has, with the rummy's deals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..report import Audit, Verdict
from .findings import Finding
from .rulesets import Ruleset


@dataclass(slots=True)
class DealResult:
    number: int
    dealer: int
    out: int | None
    out_jokers: int
    left: list[list[str]] | None
    points: list[Any]
    running: list[Any]
    audit: Audit = Audit.FULL
    turns: int = 0  #: the turns the deal records, for statistics
    #: For statistics, of a deal replayed in full: the turn that went out, and per seat the
    #: turn of its opening and the worth of its opening melds (None: it did not open).
    out_turn: int | None = None
    openings: list[tuple[int, int] | None] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "out": self.out,
            "out_jokers": self.out_jokers,
            "left": self.left,
            "points": self.points,
            "running": self.running,
        }


@dataclass(slots=True)
class Report:
    verdict: Verdict
    audit: Audit
    ruleset: Ruleset | None
    findings: list[Finding]
    deals: list[DealResult]
    totals: list[Any] | None
    winners: list[int]
    players: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": str(self.verdict),
            "audit": str(self.audit),
            "ruleset": None if self.ruleset is None else self.ruleset.to_dict(),
            "findings": [f.to_dict() for f in self.findings],
            "deals": [d.to_dict() for d in self.deals],
            "totals": self.totals,
            "winners": self.winners,
        }
