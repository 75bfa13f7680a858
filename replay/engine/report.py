"""The verification report of FORMAT.md: verdict, audit, findings, recomputed deals."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .cards import SUITS
from .findings import Code, Finding, Severity
from .scores import Score, plain_list
from .tricks.rulesets import DealKind, Ruleset


class Audit(StrEnum):
    """How much of a record the replay checked (FORMAT.md ``audit``)."""

    FULL = "full"  #: every play replayed
    SHEET = "sheet"  #: a score sheet: the claims only (RULES §10.13)
    MIXED = "mixed"  #: a report whose deals are of both audits


class Verdict(StrEnum):
    """Worst first (FORMAT.md): the verdict of a report is the worst its findings allow."""

    MALFORMED = "malformed"
    ILLEGAL = "illegal"
    MISMATCH = "mismatch"
    VERIFIED = "verified"


@dataclass(frozen=True, slots=True)
class JokerPlay:
    seat: int
    declaration: int  #: a ``cards.Declaration``, as the replay read it
    won: bool


@dataclass(slots=True)
class DealResult:
    """One deal as recomputed; the fields past ``running`` feed statistics, not the report."""

    number: int
    dealer: int
    trump: int | None  #: a suit index, -1 for no trump, None under rotating trumps
    bids: list[int] | None
    taken: list[int]
    scores: list[Score]
    running: list[Score]
    kind: DealKind = DealKind.REGULAR
    cards: int = 0
    audit: Audit = Audit.FULL
    blind: list[bool] = field(default_factory=list)
    last_bidder: int | None = None
    declarer: int | None = None
    jokers: list[JokerPlay] = field(default_factory=list)
    trick_winners: list[int] = field(default_factory=list)  #: seat winning each trick
    #: Jokers each seat was dealt: counted in the hands when the record gives them, else its
    #: joker plays (a played deal's hands are its plays); None when unknown, in a sheet deal
    #: without hands.
    jokers_held: list[int] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "trump": None if self.trump is None or self.trump < 0 else SUITS[self.trump],
            "bids": self.bids,
            "taken": self.taken,
            "scores": plain_list(self.scores),
            "running": plain_list(self.running),
        }


@dataclass(slots=True)
class Report:
    verdict: Verdict
    audit: Audit
    ruleset: Ruleset | None
    findings: list[Finding]
    deals: list[DealResult]
    totals: list[Score] | None
    winners: list[int]
    players: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": str(self.verdict),
            "audit": str(self.audit),
            "ruleset": None if self.ruleset is None else self.ruleset.to_dict(),
            "findings": [f.to_dict() for f in self.findings],
            "deals": [d.to_dict() for d in self.deals],
            "totals": None if self.totals is None else plain_list(self.totals),
            "winners": self.winners,
        }


def verdict_of(findings: list[Finding]) -> Verdict:
    verdict = Verdict.VERIFIED
    for finding in findings:
        if finding.code.value.startswith("record."):
            return Verdict.MALFORMED
        level = finding.level
        if level is Severity.ERROR:
            verdict = Verdict.ILLEGAL
        elif level is Severity.MISMATCH and verdict is Verdict.VERIFIED:
            verdict = Verdict.MISMATCH
    return verdict


def malformed(findings: list[Finding], ruleset: Ruleset | None) -> Report:
    """The report of a record that cannot be replayed (FORMAT.md conventions)."""
    return Report(Verdict.MALFORMED, Audit.FULL, ruleset, findings, [], None, [])


__all__ = [
    "Audit",
    "Code",
    "DealResult",
    "JokerPlay",
    "Report",
    "Verdict",
    "malformed",
    "verdict_of",
]
