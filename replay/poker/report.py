"""The poker verification report (docs/poker-format.md, "The report"): the verdict, the
resolved ruleset, the findings, and each hand as recomputed, never as claimed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..report import Verdict, verdict_of
from .findings import PokerFinding
from .rulesets import Ruleset


@dataclass(frozen=True, slots=True)
class PotResult:
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": list(self.winners),
        }


@dataclass(slots=True)
class HandResult:
    number: int
    dealer: int | None  #: club only
    ranks: list[str | None]
    dealer_rank: str | None
    dealer_qualifies: bool | None
    pots: list[PotResult] | None  #: club only
    winners: list[int]
    net: list[int]
    stacks: list[int]
    #: The stage at which each seat folded (1 … 5), None for a seat that did not fold; feeds
    #: statistics, not the report.
    folded: list[int | None] = field(default_factory=list)
    #: Whether each seat was dealt in (not sitting out); feeds statistics, not the report.
    dealt: list[bool] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "ranks": self.ranks,
            "dealer_rank": self.dealer_rank,
            "dealer_qualifies": self.dealer_qualifies,
            "pots": None if self.pots is None else [p.to_dict() for p in self.pots],
            "winners": self.winners,
            "net": self.net,
            "stacks": self.stacks,
        }


@dataclass(slots=True)
class PokerReport:
    verdict: Verdict
    ruleset: Ruleset | None
    findings: list[PokerFinding]
    hands: list[HandResult]
    stacks: list[int] | None
    players: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": str(self.verdict),
            "ruleset": None if self.ruleset is None else self.ruleset.to_dict(),
            "findings": [f.to_dict() for f in self.findings],
            "hands": [h.to_dict() for h in self.hands],
            "stacks": self.stacks,
        }


def poker_report(
    findings: list[PokerFinding],
    ruleset: Ruleset | None,
    hands: list[HandResult],
    stacks: list[int] | None,
    players: list[str],
) -> PokerReport:
    verdict = verdict_of(findings)
    if verdict is Verdict.MALFORMED:
        return PokerReport(verdict, ruleset, findings, [], None, players)
    return PokerReport(verdict, ruleset, findings, hands, stacks, players)


__all__ = ["HandResult", "PokerReport", "PotResult", "poker_report"]
