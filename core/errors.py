"""Errors as data for services: a refused operation carries docs/format.md findings.

Services raise ``Rejected`` when a request is well formed but cannot be carried out (merging a
player into itself, deciding a dispute twice); the API's exception handler
(``core.exceptions``) answers it with its status and ``{"findings": [...]}``, and the
transaction around the service rolls back, so nothing stored changes.
"""

from __future__ import annotations

from typing import Any

from replay import AnyFinding
from replay.findings import Severity, finding_json


def finding_dict(finding: AnyFinding) -> dict[str, Any]:
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
    """A finding about the request rather than a game: located by ``path`` only."""
    return finding_json(
        code, str(Severity.ERROR), message, expected=expected, actual=actual, path=path
    )


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
