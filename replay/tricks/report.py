"""The verification report of a trick-taking record (docs/format.md, "The report"): verdict,
audit, findings and the recomputed deals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import SUITS
from ..findings import Finding
from ..report import Audit, Verdict
from ..scores import Score, plain_list
from .rulesets import DealKind, Ruleset
from .teams import TeamDeal, standings


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
    #: The tricks counted from their stated leader, not the rules' one (RULES §10.11), by
    #: index → that leader; None when there are none, the common deal.
    counted_from: dict[int, int] | None = None
    #: Under ``teams``, each team's deal; None without teams (and then not in the report).
    teams: list[TeamDeal] | None = None
    #: A claim of the deal's last tricks: (the claimer's seat, the tricks claimed).
    claim: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        deal: dict[str, Any] = {
            "number": self.number,
            "dealer": self.dealer,
            "trump": None if self.trump is None or self.trump < 0 else SUITS[self.trump],
            "bids": self.bids,
            "taken": self.taken,
            "scores": plain_list(self.scores),
            "running": plain_list(self.running),
        }
        if self.teams is not None:
            deal["teams"] = [team.to_dict() for team in self.teams]
        if self.claim is not None:
            deal["claim"] = {"seat": self.claim[0], "tricks": self.claim[1]}
        return deal


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
        report: dict[str, Any] = {
            "verdict": str(self.verdict),
            "audit": str(self.audit),
            "ruleset": None if self.ruleset is None else self.ruleset.to_dict(),
            "findings": [f.to_dict() for f in self.findings],
            "deals": [d.to_dict() for d in self.deals],
            "totals": None if self.totals is None else plain_list(self.totals),
            "winners": self.winners,
        }
        teams = None if self.ruleset is None else self.ruleset.teams
        if teams is not None:  # standings by team; a malformed report has none to give
            report["teams"] = (
                None if self.totals is None else standings(teams, self.players, self.totals)
            )
        return report


def malformed(findings: list[Finding], ruleset: Ruleset | None) -> Report:
    """The report of a record that cannot be replayed (FORMAT.md conventions)."""
    return Report(Verdict.MALFORMED, Audit.FULL, ruleset, findings, [], None, [])


__all__ = ["DealResult", "JokerPlay", "Report", "malformed"]
