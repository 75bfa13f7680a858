"""manage.py verify: the engine's verify, knowing the rulesets stored in the service."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from games.models import StoredRuleset

pytestmark = pytest.mark.django_db


def test_a_record_naming_a_stored_ruleset_verifies_through_the_command(
    tmp_path: Path, record: Any
) -> None:
    StoredRuleset.objects.create(name="club", preset="classic", options={})
    game = record()
    game["ruleset"] = "club"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    out = StringIO()

    call_command("verify", "--json", str(path), stdout=out)  # exits non-zero unless verified

    report = json.loads(out.getvalue())
    assert report["verdict"] == "verified"
    assert report["ruleset"]["preset"] == "classic"


def test_a_ruleset_the_service_does_not_store_is_malformed(tmp_path: Path, record: Any) -> None:
    game = record()
    game["ruleset"] = "club"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    out = StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("verify", str(path), stdout=out)
    assert exited.value.code == 1
    assert "malformed" in out.getvalue()
