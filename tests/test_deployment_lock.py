"""The deployment's lock file (docker/requirements.lock) pins what pyproject.toml asks for.

The image installs the lock alone (docker/Dockerfile): a dependency added to pyproject.toml
but not locked, or locked outside its range, would be missing or wrong in production only.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "docker" / "requirements.lock"


def locked() -> dict[str, str]:
    pins = re.findall(r"^([A-Za-z0-9_.-]+)==([^ \\\n]+)", LOCK.read_text(), flags=re.M)
    return {canonicalize_name(name): version for name, version in pins}


def test_every_runtime_dependency_is_locked_within_its_range() -> None:
    """The engine's own dependencies and the service's extra: the image runs the service."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = locked()
    for line in project["dependencies"] + project["optional-dependencies"]["service"]:
        wanted = Requirement(line)
        name = canonicalize_name(wanted.name)
        assert name in pins, f"{wanted.name} is not in {LOCK.name}"
        assert wanted.specifier.contains(pins[name], prereleases=True), (line, pins[name])


def test_every_pin_carries_its_hashes_and_the_lock_names_no_index() -> None:
    text = LOCK.read_text()
    assert not re.search(r"^--(index-url|extra-index-url|find-links)", text, flags=re.M)
    hashed = re.findall(r"^[A-Za-z0-9_.-]+==\S+ \\\n\s+--hash=sha256:", text, flags=re.M)
    assert len(hashed) == len(locked())
