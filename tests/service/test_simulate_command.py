"""``manage.py simulate``: the engine's simulator inside the project, poker included."""

from __future__ import annotations

import json
from io import StringIO

from django.core.management import call_command

from replay import verify


def test_it_writes_poker_records_that_verify() -> None:
    out = StringIO()
    call_command(
        "simulate", "--game", "poker", "--ruleset", "club_stud", "--players", "4",
        "--games", "2", "--hands", "3", stdout=out,
    )  # fmt: skip
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(records) == 2
    assert [str(verify(r).verdict) for r in records] == ["verified", "verified"]


def test_it_still_writes_trick_taking_games() -> None:
    out = StringIO()
    call_command("simulate", "--ruleset", "classic", "--players", "4", stdout=out)
    assert json.loads(out.getvalue())["format"] == "raspis/1"
