"""``python -m replay verify|simulate``: reports, exit codes, every input form."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from replay.cli import main
from replay.simulate import simulate_game


@pytest.fixture
def legal() -> dict:
    return simulate_game("classic", 4, 3, names=["Anna", "Boris", "Vera", "Gleb"])


@pytest.fixture
def revoked() -> dict:
    return simulate_game("classic", 4, 3, corrupt="revoke", names=["Anna", "Boris", "Vera", "Gleb"])


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_a_legal_record_is_verified_with_exit_status_0(tmp_path: Path, legal: dict) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(legal), encoding="utf-8")
    status, out = run("verify", str(path))
    assert status == 0
    assert out.splitlines()[0] == f"{path} record: verified (full audit, classic, 36 deals)"
    assert out.splitlines()[1].startswith("  totals: Anna ")


def test_a_broken_rule_is_located_as_a_player_reads_it(tmp_path: Path, revoked: dict) -> None:
    where = revoked["meta"]["corruption"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(revoked), encoding="utf-8")
    status, out = run("verify", str(path))
    assert status == 1
    player = ["Anna", "Boris", "Vera", "Gleb"][where["seat"]]
    line = next(line for line in out.splitlines() if "play.revoke" in line)
    assert f"deal {where['deal']}, trick {where['trick']}, {player}: did not follow" in line


def test_json_lines_give_one_report_per_record_in_input_order(
    tmp_path: Path, legal: dict, revoked: dict
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(f"{json.dumps(revoked)}\nnot json\n{json.dumps(legal)}\n", encoding="utf-8")
    status, out = run("verify", "--json", str(path))
    reports = [json.loads(line) for line in out.splitlines()]
    assert status == 1
    assert [r["verdict"] for r in reports] == ["illegal", "malformed", "verified"]
    assert reports[1]["findings"][0]["code"] == "record.json"


def test_a_zip_of_records_is_read_member_by_member(tmp_path: Path, legal: dict) -> None:
    path = tmp_path / "games.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a.json", json.dumps(legal))
        archive.writestr("b.jsonl", json.dumps(legal) + "\n" + json.dumps(legal) + "\n")
        archive.writestr("notes.txt", "ignored")
    status, out = run("verify", "--json", str(path))
    assert status == 0
    assert len(out.splitlines()) == 3


def test_standard_input_is_read_for_a_dash(legal: dict) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "replay", "verify", "--json", "-"],
        input=json.dumps(legal),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["verdict"] == "verified"


def test_a_missing_file_is_a_usage_error_with_exit_status_2(tmp_path: Path) -> None:
    status, _ = run("verify", str(tmp_path / "nope.json"))
    assert status == 2


def test_simulate_writes_json_lines_that_verify(tmp_path: Path) -> None:
    status, out = run(
        "simulate", "--ruleset", "joker54", "--players", "5", "--games", "2", "--seed", "9"
    )
    assert status == 0
    path = tmp_path / "sim.jsonl"
    path.write_text(out, encoding="utf-8")
    assert run("verify", str(path))[0] == 0


def test_simulate_with_claims_writes_claims_that_hold(tmp_path: Path) -> None:
    argv = ["simulate", "--ruleset", "classic", "--players", "4", "--games", "3", "--claims"]
    status, out = run(*argv)
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert any("claim" in deal for record in records for deal in record["deals"])
    path = tmp_path / "claims.jsonl"
    path.write_text(out, encoding="utf-8")
    assert run("verify", str(path))[0] == 0
    status, out = run(*argv[:-3], "--games", "1", "--claims", "--corrupt", "bad_claim")
    assert status == 0
    path.write_text(out, encoding="utf-8")
    status, report = run("verify", "--json", str(path))
    assert status == 1
    assert "claim.beaten" in {f["code"] for f in json.loads(report)["findings"]}


def test_simulate_rejects_an_unknown_corruption_with_exit_status_2() -> None:
    status, _ = run("simulate", "--ruleset", "classic", "--players", "4", "--corrupt", "nope")
    assert status == 2


def test_problems_prints_only_the_records_not_verified(
    tmp_path: Path, legal: dict, revoked: dict
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(f"{json.dumps(legal)}\n{json.dumps(revoked)}\n", encoding="utf-8")
    status, out = run("verify", "--json", "--problems", str(path))
    assert status == 1
    assert [json.loads(line)["verdict"] for line in out.splitlines()] == ["illegal"]


def test_the_summary_counts_verdicts_and_names_the_gravest_findings(
    tmp_path: Path, legal: dict, revoked: dict
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(f"{json.dumps(legal)}\n{json.dumps(revoked)}\nnot json\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "replay", "verify", "--json", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "3 records: 1 malformed, 1 illegal, 1 verified;"
        " worst: play.revoke (error) ×1, record.json (error) ×1"
    )
    assert len(done.stdout.splitlines()) == 3


def test_a_closed_pipe_ends_verify_quietly(tmp_path: Path, legal: dict) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text((json.dumps(legal) + "\n") * 300, encoding="utf-8")
    done = subprocess.run(
        f"{sys.executable} -m replay verify --json {path} | head -c 10",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert len(done.stdout) == 10
    assert done.stderr == ""


def stderr_on_a_terminal(*argv: str, same_screen: bool = False) -> str:
    """What the command draws on its standard error when that is a pseudo-terminal, as in a
    person's shell; its standard output is thrown away, or, ``same_screen``, goes to the
    same terminal."""
    import os
    import pty

    primary, secondary = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "replay", *argv],
        stdout=secondary if same_screen else subprocess.DEVNULL,
        stderr=secondary,
    )
    os.close(secondary)
    seen = b""
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:  # the terminal closes when the process ends
            break
        if not chunk:
            break
        seen += chunk
    os.close(primary)
    assert process.wait() in (0, 1)
    return seen.decode()


def test_verify_draws_its_progress_on_a_terminal_and_clears_it(tmp_path: Path, legal: dict) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text((json.dumps(legal) + "\n") * 200, encoding="utf-8")
    text = stderr_on_a_terminal("verify", "--json", str(path))
    assert " records, " in text and "/s" in text and " left" in text
    assert "\r" in text
    assert text.rstrip().endswith("200 records: 200 verified")


def test_reports_on_the_same_screen_are_not_written_over_the_progress(
    tmp_path: Path, legal: dict
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text((json.dumps(legal) + "\n") * 100, encoding="utf-8")
    screen = stderr_on_a_terminal("verify", "--json", str(path), same_screen=True)
    assert " records, " in screen
    # What a line shows is what follows its last carriage return (the terminal ends each
    # line with one more, before its newline).
    shown = [line.rsplit("\r", 1)[-1] for line in screen.split("\r\n") if line.strip()]
    assert shown[-1] == "100 records: 100 verified"
    assert [json.loads(line)["verdict"] for line in shown[:-1]] == ["verified"] * 100


def test_simulate_draws_its_progress_on_a_terminal() -> None:
    text = stderr_on_a_terminal(
        "simulate", "--ruleset", "classic", "--players", "4", "--games", "6"
    )
    assert " games, " in text and "/s" in text and " left" in text


def test_no_progress_when_standard_error_is_not_a_terminal(tmp_path: Path, legal: dict) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(legal), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "replay", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stderr == "1 record: 1 verified\n"


def test_help_lists_every_preset_corruption_and_exit_status() -> None:
    from replay import PRESETS
    from replay.simulate import CORRUPTIONS

    def help_of(command: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "replay", command, "--help"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    simulate, verify = help_of("simulate"), help_of("verify")
    assert all(preset in simulate for preset in PRESETS)
    assert all(mode in simulate for mode in CORRUPTIONS)
    for status in ("0 ", "1 ", "2 "):
        assert f"  {status} " in verify
    assert "  0  " in simulate and "  2  " in simulate
    assert "--problems" in verify


def test_progress_shows_the_count_rate_and_time_left() -> None:
    from replay.progress import Progress

    now = [0.0]
    stream = io.StringIO()
    progress = Progress(stream, "records", clock=lambda: now[0])
    for _ in range(50):
        now[0] += 0.01
        progress.step(fraction=progress.done / 200)
    assert progress.line(now[0], 0.25) == "50 records, 100/s, 2 s left"
    progress.close()
    assert stream.getvalue().endswith("\r")
