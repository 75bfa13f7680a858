"""Poker golden records (tests/golden/poker/): each ``NAME.record.json`` with the report
worked out by hand from docs/poker.md beside it (``NAME.report.json``, its ``_why`` says
how), compared field by field, findings in order. An expected ruleset without ``options``
is checked to list every option of its game: the preset's, with the record's overrides."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replay import verify
from replay.poker.findings import PokerCode
from replay.poker.game import verify as poker_verify
from replay.poker.rulesets import PRESETS

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "poker"


def names() -> list[str]:
    return sorted(p.name.removesuffix(".report.json") for p in GOLDEN.glob("*.report.json"))


def expected(name: str) -> dict[str, Any]:
    data = json.loads((GOLDEN / f"{name}.report.json").read_text(encoding="utf-8"))
    data.pop("_why")
    return data


def record(name: str) -> Any:
    return json.loads((GOLDEN / f"{name}.record.json").read_text(encoding="utf-8"))


def resolved(ruleset: Any) -> dict[str, Any]:
    preset, overrides = (
        (ruleset, {})
        if isinstance(ruleset, str)
        else (ruleset["preset"], ruleset.get("options", {}))
    )
    options = {**PRESETS[preset][1], **overrides}
    if "paytable" in overrides:
        options["paytable"] = {**PRESETS[preset][1]["paytable"], **overrides["paytable"]}
    return options


@pytest.mark.parametrize("name", names())
def test_poker_golden(name: str) -> None:
    given = record(name)
    actual = verify(given).to_dict()
    want = expected(name)
    if want["ruleset"] is not None and "options" not in want["ruleset"]:
        assert actual["ruleset"]["options"] == resolved(given["ruleset"])
        actual["ruleset"] = {"preset": actual["ruleset"]["preset"]}
    assert actual["findings"] == want["findings"]
    assert actual == want


def test_every_poker_finding_code_has_a_golden() -> None:
    """All but ``record.json``: a body that is no object names no format, so the shared
    reader answers it (tests/golden/malformed_*), and the poker reader only below."""
    seen = {f["code"] for name in names() for f in expected(name)["findings"]}
    assert {str(c) for c in PokerCode} - seen == {"record.json"}


def test_the_poker_reader_refuses_what_is_not_an_object() -> None:
    report = poker_verify([1, 2]).to_dict()
    assert report["verdict"] == "malformed"
    assert [f["code"] for f in report["findings"]] == ["record.json"]
    assert report["hands"] == [] and report["stacks"] is None


def test_every_poker_preset_has_a_verified_golden() -> None:
    verified = set()
    for name in names():
        if expected(name)["verdict"] == "verified":
            ruleset = record(name)["ruleset"]
            verified.add(ruleset if isinstance(ruleset, str) else ruleset["preset"])
    assert verified == set(PRESETS) - {"j_poker"}
    assert any(record(n).get("ruleset") == "j_poker" for n in names())
