"""``python -m replay verify`` and ``simulate --game poker`` with poker records."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from replay.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "poker"


def test_verify_prints_a_poker_report_with_its_findings_located() -> None:
    out = io.StringIO()
    status = main(["verify", str(GOLDEN / "club_betting_errors.record.json")], out)
    assert status == 1
    text = out.getvalue()
    assert "illegal (club_stud, 1 hands)" in text
    assert "error bet.order — hand 1, stage 1, action 1, Anna: it is not this seat's turn" in text


def test_simulate_writes_poker_records_that_verify(tmp_path: Path) -> None:
    out = io.StringIO()
    argv = ["simulate", "--game", "poker", "--ruleset", "club_stud", "--players", "6"]
    assert main([*argv, "--games", "3", "--hands", "4", "--seed", "7"], out) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    path = tmp_path / "club.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    reports = io.StringIO()
    assert main(["verify", "--json", str(path)], reports) == 0
    assert [json.loads(r)["verdict"] for r in reports.getvalue().splitlines()] == ["verified"] * 3


def test_simulate_corrupts_a_poker_record_at_the_place_it_names() -> None:
    out = io.StringIO()
    argv = ["simulate", "--game", "poker", "--ruleset", "joker_poker", "--players", "3"]
    assert main([*argv, "--corrupt", "result.payout"], out) == 0
    record = json.loads(out.getvalue())
    assert record["meta"]["corruption"]["code"] == "result.payout"


@pytest.mark.parametrize(
    "extra", [["--ruleset", "club_stud", "--players", "9"], ["--ruleset", "nope", "--players", "2"]]
)
def test_simulate_answers_a_usage_error_for_a_bad_poker_request(extra: list[str]) -> None:
    assert main(["simulate", "--game", "poker", *extra], io.StringIO()) == 2
