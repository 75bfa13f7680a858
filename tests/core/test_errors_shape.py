"""The plumbing writes the API's findings without knowing any game: these hold its shape equal
to the engine's, so a refused request and a report's finding read the same."""

from __future__ import annotations

from core.errors import SEVERITIES, request_finding
from replay.findings import Severity, finding_json


def test_severities_are_the_engines() -> None:
    assert tuple(str(severity) for severity in Severity) == SEVERITIES


def test_a_request_finding_is_the_engines_finding_json() -> None:
    ours = request_finding(
        "request.invalid", "bad page", path="/page", expected="an integer", actual="x"
    )
    theirs = finding_json(
        "request.invalid", "error", "bad page", expected="an integer", actual="x", path="/page"
    )
    assert ours == theirs
    assert list(ours) == list(theirs)


def test_an_unlocated_request_finding_keeps_a_null_path() -> None:
    ours = request_finding("request.too_large", "too large")
    assert list(ours) == list(finding_json("request.too_large", "error", "too large"))
    assert ours["path"] is None
