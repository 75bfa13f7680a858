"""The installed ``raspis`` command is the engine's command line, as ``python -m replay``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RASPIS = Path(sys.executable).with_name("raspis")


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)


@pytest.mark.skipif(not RASPIS.exists(), reason="the project is not installed in this Python")
@pytest.mark.parametrize(
    ("arguments", "status"),
    [
        (("verify", "examples/classic-4p.json"), 0),
        (("verify", "examples/rummy-3p.json", "examples/club_stud-4p.json"), 0),
        (("verify", "--json", "examples/several-errors.json"), 1),
        (("simulate", "--ruleset", "joker54", "--players", "5", "--games", "2", "--seed", "3"), 0),
        (("verify", "no-such-file.json"), 2),
    ],
)
def test_the_raspis_command_answers_as_python_m_replay_engine(
    arguments: tuple[str, ...], status: int
) -> None:
    installed = run(str(RASPIS), *arguments)
    module = run(sys.executable, "-m", "replay", *arguments)
    assert installed.returncode == module.returncode == status, installed.stderr
    assert installed.stdout == module.stdout
    assert installed.stdout or installed.stderr


@pytest.mark.skipif(not RASPIS.exists(), reason="the project is not installed in this Python")
def test_the_raspis_command_names_itself_in_its_usage() -> None:
    assert run(str(RASPIS), "--help").stdout.startswith("usage: raspis ")
    assert run(sys.executable, "-m", "replay", "--help").stdout.startswith(
        "usage: python -m replay "
    )
