"""``verify`` and ``simulate --game rummy`` on the command line (docs/rummy.md)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from replay.cli import main
from replay.rummy.simulate import simulate_game


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_simulated_rummy_records_verify(tmp_path: Path) -> None:
    status, out = run(
        "simulate", "--game", "rummy", "--ruleset", "joker_rummy", "--players", "3",
        "--games", "2", "--seed", "5",
    )  # fmt: skip
    assert status == 0
    path = tmp_path / "games.jsonl"
    path.write_text(out, encoding="utf-8")
    status, out = run("verify", str(path))
    assert status == 0
    assert out.splitlines()[0] == f"{path} line 1: verified (full audit, joker_rummy, 3 deals)"


def test_a_rummy_finding_is_located_by_deal_turn_and_player(tmp_path: Path) -> None:
    record = simulate_game("joker_rummy", 4, 2, corrupt_mode="turn.discard")
    where = record["meta"]["corruption"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    status, out = run("verify", "--json", str(path))
    assert status == 1
    first = json.loads(out)["findings"][0]
    assert (first["code"], first["deal"], first["turn"]) == (
        "turn.discard",
        where["deal"],
        where["turn"],
    )
    status, out = run("verify", str(path))
    player = record["players"][where["seat"]]
    assert f"error turn.discard — deal {where['deal']}, turn {where['turn']}, {player}:" in out


def test_an_unknown_rummy_corruption_is_a_usage_error() -> None:
    status, _ = run(
        "simulate", "--game", "rummy", "--ruleset", "joker_rummy", "--players", "3",
        "--corrupt", "play.revoke",
    )  # fmt: skip
    assert status == 2
