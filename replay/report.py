"""What every game's report shares: its verdict, from the findings, and its audit."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Protocol

from .findings import Severity


class Audit(StrEnum):
    """How much of a record the replay checked (docs/format.md ``audit``)."""

    FULL = "full"  #: every play replayed
    SHEET = "sheet"  #: a score sheet: the claims only (RULES §10.13)
    MIXED = "mixed"  #: a report whose deals are of both audits


class Verdict(StrEnum):
    """Worst first (docs/format.md): the verdict of a report is the worst its findings allow."""

    MALFORMED = "malformed"
    ILLEGAL = "illegal"
    MISMATCH = "mismatch"
    VERIFIED = "verified"


class Graded(Protocol):
    """A finding of any game family, as far as the verdict reads it."""

    @property
    def code(self) -> str: ...

    @property
    def level(self) -> Severity: ...


def verdict_of(findings: Iterable[Graded]) -> Verdict:
    verdict = Verdict.VERIFIED
    for finding in findings:
        # A file that could not be imported is no record either (importers).
        if finding.code.startswith(("record.", "import.")):
            return Verdict.MALFORMED
        level = finding.level
        if level is Severity.ERROR:
            verdict = Verdict.ILLEGAL
        elif level is Severity.MISMATCH and verdict is Verdict.VERIFIED:
            verdict = Verdict.MISMATCH
    return verdict


__all__ = ["Audit", "Graded", "Verdict", "verdict_of"]
