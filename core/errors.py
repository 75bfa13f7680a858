"""Errors as data for services: a refused operation carries docs/format.md findings.

Services raise ``Rejected`` when a request is well formed but cannot be carried out (merging a
player into itself, deciding a dispute twice); the API's exception handler
(``core.exceptions``) answers it with its status and ``{"findings": [...]}``, and the
transaction around the service rolls back, so nothing stored changes.
"""

from __future__ import annotations

from typing import Any, Protocol

#: The severities of docs/format.md ("Findings"), as every game's findings write them. The
#: plumbing knows no game: a test holds these equal to the engine's ``Severity``.
SEVERITIES = ("error", "warning", "mismatch", "penalty")


class Finding(Protocol):
    """A finding of any game's engine: it writes itself as docs/format.md's JSON object."""

    def to_dict(self, *, null_path: bool = False) -> dict[str, Any]: ...


def finding_dict(finding: Finding) -> dict[str, Any]:
    """A finding in the API's shape: the report's fields with ``path`` always present."""
    return finding.to_dict(null_path=True)


def request_finding(
    code: str,
    message: str,
    *,
    path: str | None = None,
    expected: Any = None,
    actual: Any = None,
) -> dict[str, Any]:
    """A finding about the request rather than a game: located by ``path`` only, its keys in
    the order of a report's finding (a test holds it equal to the engine's ``finding_json``)."""
    return {
        "code": code,
        "severity": "error",
        "deal": None,
        "trick": None,
        "play": None,
        "seat": None,
        "player": None,
        "message": message,
        "expected": expected,
        "actual": actual,
        "path": path,
    }


class Rejected(Exception):
    """A refused operation: ``findings`` say why, ``status`` is the HTTP status to answer."""

    def __init__(self, findings: list[dict[str, Any]], status: int = 400) -> None:
        super().__init__(findings[0]["message"] if findings else "rejected")
        self.findings = findings
        self.status = status

    @classmethod
    def one(
        cls,
        message: str,
        *,
        code: str = "request.invalid",
        path: str | None = None,
        status: int = 400,
        expected: Any = None,
        actual: Any = None,
    ) -> Rejected:
        finding = request_finding(code, message, path=path, expected=expected, actual=actual)
        return cls([finding], status)
