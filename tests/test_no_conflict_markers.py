"""No file of the tree keeps the markers of an unresolved merge: a browser drops the rules of
a style sheet that holds them, and nothing else would say so."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^(<{7} |>{7} |={7}$)", re.MULTILINE)
TEXT = (".py", ".html", ".css", ".js", ".md", ".po", ".toml", ".json", ".yaml", ".yml", ".txt")


def test_no_file_holds_merge_conflict_markers() -> None:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    marked = [
        name
        for name in listed
        if name.endswith(TEXT)
        and (ROOT / name).is_file()
        and MARKER.search((ROOT / name).read_text(encoding="utf-8", errors="replace"))
    ]
    assert marked == []
