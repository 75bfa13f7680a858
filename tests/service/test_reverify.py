"""manage.py reverify: stored games replayed by the current engine; verdict changes kept."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.models import Game, GameRecord, StoredRuleset
from tests.service.conftest import post_record
from verification.models import Report, VerdictChange

pytestmark = pytest.mark.django_db


def reverify(*args: str) -> str:
    out = StringIO()
    call_command("reverify", *args, stdout=out)
    return out.getvalue()


def test_a_game_judged_by_an_older_engine_is_reverified_and_its_change_recorded(
    client_of: Any, user: Any, illegal_record: Any
) -> None:
    game_id = post_record(client_of(user), illegal_record).json()["game"]["id"]
    # As if an older engine had passed the record: its report said verified.
    Game.objects.filter(pk=game_id).update(verdict="verified", status="verified")
    Report.objects.filter(game_id=game_id).update(verdict="verified", engine_version="0.9.0")
    output = reverify()
    assert f"game {game_id}: verified -> illegal" in output
    assert "re-verified 1 games" in output
    change = VerdictChange.objects.get(game_id=game_id)
    assert (change.old, change.new, change.old_engine, change.reason) == (
        "verified",
        "illegal",
        "0.9.0",
        "reverify",
    )
    game = Game.objects.get(pk=game_id)
    assert (game.verdict, game.status) == ("illegal", "flagged")
    assert Report.objects.filter(game_id=game_id).count() == 2
    assert Report.objects.get(game_id=game_id, current=True).verdict == "illegal"
    assert reverify().startswith("re-verified 0 games")


def test_all_reverifies_every_game_and_keeps_the_history(
    client_of: Any, user: Any, record: Any
) -> None:
    game_id = post_record(client_of(user), record()).json()["game"]["id"]
    assert "re-verified 1 games" in reverify("--all")
    assert Report.objects.filter(game_id=game_id).count() == 2
    assert not VerdictChange.objects.exists()
    assert Game.objects.get(pk=game_id).seats.count() == 4


def test_a_changed_stored_ruleset_changes_the_verdict(
    client_of: Any, user: Any, record: Any
) -> None:
    client = client_of(user)
    client.post("/api/rulesets/", {"name": "club", "preset": "classic"}, format="json")
    game = record()
    game["ruleset"] = "club"
    game_id = post_record(client, game).json()["game"]["id"]
    # The club now scores a made pass 50, so the sheet's claimed scores no longer add up.
    StoredRuleset.objects.filter(name="club").update(options={"pass_made": 50})
    assert "verified -> mismatch" in reverify("--since", "2000-01-01")
    game = Game.objects.get(pk=game_id)
    assert (game.verdict, game.status) == ("mismatch", "flagged")


def test_a_bad_date_is_refused() -> None:
    with pytest.raises(CommandError, match="not an ISO 8601 date"):
        reverify("--since", "yesterday")


def test_reverifying_keeps_the_record_current_and_readable(
    client_of: Any, user: Any, record: Any
) -> None:
    client = client_of(user)
    game_id = post_record(client, record()).json()["game"]["id"]
    reverify("--all")
    assert GameRecord.objects.filter(game_id=game_id, current=True).count() == 1
    assert client.get(f"/api/games/{game_id}/record/").status_code == 200
    assert client.get(f"/api/games/{game_id}/replay/", {"deal": 1}).status_code == 200
