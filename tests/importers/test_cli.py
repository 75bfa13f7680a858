"""``raspis import --from FORMAT FILE...``: JSON Lines out, findings on standard error."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from importers.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"


def test_import_writes_records_that_verify(tmp_path: Path) -> None:
    out = io.StringIO()
    files = [
        str(FIXTURES / "openspiel-3p.playthrough.txt"),
        str(FIXTURES / "openspiel-4p.state.txt"),
    ]
    assert main(["import", "--from", "openspiel", *files], out) == 0
    path = tmp_path / "games.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    assert len(out.getvalue().splitlines()) == 2
    assert main(["verify", str(path)], io.StringIO()) == 0


def test_findings_go_to_standard_error_with_exit_status_1() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "importers", "import", "--from", "sheet",
         str(FIXTURES / "sheet-two-row-header.csv")],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 1
    assert json.loads(done.stdout)["players"] == ["Anna", "Boris", "Vera"]
    assert "error import.value — line 8, column 4: 'x' is not a whole number" in done.stderr


def test_an_unknown_format_or_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["import", "--from", "nope", "x.csv"])
    assert exit_.value.code == 2
    assert main(["import", "--from", "sheet", "no-such.csv"], io.StringIO()) == 2


def test_the_engine_alone_has_no_import_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "replay", "import", "--from", "sheet", "x.csv"],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 2
    assert "invalid choice: 'import'" in done.stderr


def test_import_help_lists_the_formats_and_exit_statuses() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "importers", "import", "--help"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    assert done.stdout.startswith("usage: python -m importers import ")
    for name in ("ohw", "openspiel", "sheet", "  0  ", "  1  ", "  2  "):
        assert name in done.stdout
