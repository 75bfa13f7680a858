"""POST /api/games/: store and verify one record; duplicates, replacements, bad input."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from games.models import Game, GameRecord, GameSeat, Player
from tests.service.conftest import findings_of, post_record, text_of
from uploads.models import Upload
from verification.models import Finding, Report, SeatDeal, VerdictChange

pytestmark = pytest.mark.django_db
Make = Callable[..., dict[str, Any]]


def test_anonymous_users_cannot_store_a_record(api_client: APIClient, record: Make) -> None:
    response = post_record(api_client, record())
    assert response.status_code == 401
    assert findings_of(response)[0]["code"] == "request.unauthenticated"
    assert Game.objects.count() == 0


def test_it_stores_a_legal_record_and_answers_201_with_game_and_report(
    client_of: Any, user: Any, record: Make
) -> None:
    game = record()
    text = text_of(game)
    response = post_record(client_of(user), text)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["duplicate"] is False and body["replaced"] is False
    assert body["report"]["verdict"] == "verified"
    stored = Game.objects.get(pk=body["game"]["id"])
    assert (stored.verdict, stored.status, stored.ruleset_preset) == (
        "verified",
        "verified",
        "classic",
    )
    assert stored.external_id == game["meta"]["external_id"]
    assert stored.uploaded_by == user
    assert stored.players_count == 4 and stored.deals_count == 36
    version = GameRecord.objects.get(game=stored)
    assert version.text == text
    assert version.sha256 == hashlib.sha256(text.encode()).hexdigest()
    assert [s["name"] for s in body["game"]["seats"]] == game["players"]
    assert SeatDeal.objects.filter(game=stored).count() == 36 * 4
    assert Report.objects.get(game=stored, current=True).engine_version


def test_seats_carry_totals_places_and_winners_from_the_replay(
    client_of: Any, user: Any, record: Make
) -> None:
    body = post_record(client_of(user), record()).json()
    totals = body["report"]["totals"]
    seats = GameSeat.objects.filter(game_id=body["game"]["id"]).order_by("seat")
    assert [float(s.total) for s in seats] == [float(t) for t in totals]
    best = max(totals)
    assert [s.winner for s in seats] == [t == best for t in totals]
    assert [s.place for s in seats] == [1 + sum(o > t for o in totals) for t in totals]
    last = SeatDeal.objects.filter(game_id=body["game"]["id"], number=36).order_by("seat")
    assert [float(d.running) for d in last] == [float(t) for t in totals]


def test_the_same_record_twice_is_one_game_reported_as_a_duplicate(
    client_of: Any, user: Any, other_user: Any, record: Make
) -> None:
    text = text_of(record())
    first = post_record(client_of(user), text).json()
    again = post_record(client_of(user), text)
    assert again.status_code == 200
    assert again.json()["duplicate"] is True
    assert again.json()["game"]["id"] == first["game"]["id"]
    by_other = post_record(client_of(other_user), text)
    assert by_other.status_code == 200 and by_other.json()["duplicate"] is True
    assert Game.objects.count() == GameRecord.objects.count() == 1


def test_a_corrected_record_with_the_same_external_id_replaces_the_earlier_version(
    client_of: Any, user: Any, record: Make, mismatch_record: dict[str, Any]
) -> None:
    client = client_of(user)
    wrong = dict(mismatch_record, meta={**mismatch_record["meta"], "external_id": "club-7"})
    first = post_record(client, wrong).json()
    game_id = first["game"]["id"]
    assert first["game"]["status"] == "flagged"
    corrected = record()
    corrected["meta"]["external_id"] = "club-7"
    response = post_record(client, corrected)
    assert response.status_code == 200
    body = response.json()
    assert body["replaced"] is True and body["game"]["id"] == game_id
    assert body["game"]["verdict"] == "verified" and body["game"]["status"] == "verified"
    versions = list(GameRecord.objects.filter(game_id=game_id).order_by("pk"))
    assert [v.current for v in versions] == [False, True]
    assert versions[0].text == text_of(wrong)
    assert Report.objects.filter(game_id=game_id).count() == 2
    assert Report.objects.get(game_id=game_id, current=True).verdict == "verified"
    assert GameSeat.objects.filter(game_id=game_id).count() == 4
    assert SeatDeal.objects.filter(game_id=game_id).count() == 36 * 4
    change = VerdictChange.objects.get(game_id=game_id)
    assert (change.old, change.new, change.reason) == ("mismatch", "verified", "replaced")
    detail = client.get(f"/api/games/{game_id}/").json()
    assert [v["current"] for v in detail["versions"]] == [False, True]


def test_the_same_external_id_from_another_uploader_is_another_game(
    client_of: Any, user: Any, other_user: Any, record: Make
) -> None:
    first, second = record(0), record(1)
    second["meta"]["external_id"] = first["meta"]["external_id"]
    a = post_record(client_of(user), first).json()
    b = post_record(client_of(other_user), second)
    assert b.status_code == 201
    assert b.json()["game"]["id"] != a["game"]["id"]


@pytest.mark.parametrize("corrupt", ["illegal_record", "mismatch_record"])
def test_illegal_and_mismatched_games_are_flagged_for_review(
    client_of: Any, user: Any, corrupt: str, request: pytest.FixtureRequest
) -> None:
    response = post_record(client_of(user), request.getfixturevalue(corrupt))
    assert response.status_code == 201
    game = Game.objects.get(pk=response.json()["game"]["id"])
    assert game.status == "flagged"
    assert game.verdict == response.json()["report"]["verdict"] != "verified"
    assert Finding.objects.filter(game=game).count() == len(response.json()["report"]["findings"])


def test_findings_are_stored_with_every_field(
    client_of: Any, user: Any, illegal_record: dict[str, Any]
) -> None:
    body = post_record(client_of(user), illegal_record).json()
    stored = [
        f.to_dict() for f in Finding.objects.filter(game_id=body["game"]["id"]).order_by("pk")
    ]
    reported = [{**f, "path": f.get("path")} for f in body["report"]["findings"]]
    assert stored == reported


def test_a_stored_report_keeps_numbers_past_64_bits_and_lone_surrogates(
    client_of: Any, user: Any, record: Make
) -> None:
    """An illegal record may claim a bid of 10**30 and name a player "\\ud800": the stored
    report is written by the standard library then (``rows.json_text``) and reads back whole."""
    game = record(0)
    game["players"][1] = "Boris \ud800"
    game["deals"][0]["bids"][1] = 10**30
    response = client_of(user).post(
        "/api/games/", json.dumps(game), content_type="application/json"
    )
    assert response.status_code == 201
    stored = Report.objects.get(game_id=response.json()["game"]["id"]).as_dict()
    assert stored == response.json()["report"]
    claims = [f for f in stored["findings"] if f["actual"] == 10**30]
    assert claims and claims[0]["player"] == "Boris \ud800"


def test_a_finding_about_a_player_with_a_long_name_is_stored(
    client_of: Any, user: Any, illegal_record: dict[str, Any]
) -> None:
    """A revoke by a player named in 260 characters: the finding's row was refused by
    PostgreSQL (the player column holds 200) and the request failed with a 500. The row holds
    the name as the seat does; the report keeps it whole."""
    game = json.loads(json.dumps(illegal_record))
    game["players"] = [f"{'Ж' * 250}{seat}" for seat in range(4)]
    response = post_record(client_of(user), game)
    assert response.status_code == 201, response.json()
    body = response.json()
    (revoke,) = [f for f in body["report"]["findings"] if f["code"] == "play.revoke"]
    assert revoke["player"] == game["players"][revoke["seat"]]
    row = Finding.objects.get(game_id=body["game"]["id"], code="play.revoke")
    seat = GameSeat.objects.get(game_id=body["game"]["id"], seat=revoke["seat"])
    assert row.player == seat.name == revoke["player"][:200]


def test_a_verified_game_scored_past_the_columns_is_stored_with_its_scores_held_to_them(
    client_of: Any, user: Any, record: Make
) -> None:
    """A club's ruleset may score a made bid at 10**12 points: the game is verified and its
    seat-deal rows were written unclamped, which PostgreSQL refused (a 500)."""
    game = record(0)
    game["ruleset"] = {
        "preset": "classic",
        "options": {"pass_made": 10**12, "made_per_trick": 10**12},
    }
    for deal in game["deals"]:
        deal.pop("scores", None)
        deal.pop("running", None)
    game.pop("totals", None)
    response = post_record(client_of(user), game)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["report"]["verdict"] == "verified"
    assert max(body["report"]["totals"]) > 10**13
    rows = SeatDeal.objects.filter(game_id=body["game"]["id"])
    assert max(r.running for r in rows) == Decimal(10) ** 10 - 1
    stored = Report.objects.get(game_id=body["game"]["id"]).as_dict()
    assert stored["totals"] == body["report"]["totals"]


@pytest.mark.parametrize(
    ("body", "code", "path"),
    [
        (b"{oops", "record.json", ""),
        (b"\xc3\x28", "record.json", ""),
        (b'"just a string"', "record.json", ""),
        (
            b'{"format": "raspis/1", "ruleset": "classic", "players": "Anna"}',
            "record.schema",
            "/players",
        ),
        (
            b'{"format": "raspis/1", "ruleset": "nope", "players": ["A","B","C"], "deals": []}',
            "record.ruleset",
            "/ruleset",
        ),
    ],
)
def test_a_malformed_record_is_refused_with_findings_and_nothing_is_stored(
    client_of: Any, user: Any, body: bytes, code: str, path: str
) -> None:
    response = post_record(client_of(user), body)
    assert response.status_code == 400
    findings = findings_of(response)
    assert (code, path) in {(f["code"], f["path"]) for f in findings}
    assert Game.objects.count() == Player.objects.count() == 0


def test_a_bad_visibility_is_refused(client_of: Any, user: Any, record: Make) -> None:
    response = post_record(client_of(user), record(), visibility="secret")
    assert response.status_code == 400
    (finding,) = findings_of(response)
    assert (finding["code"], finding["path"]) == ("request.invalid", "/visibility")


@override_settings(RASPIS_SYNC_RECORD_MAX_BYTES=1000)
def test_a_large_record_is_stored_by_a_worker_and_answered_202_with_a_link(
    client_of: Any, user: Any, record: Make, committed: Any
) -> None:
    client = client_of(user)
    with committed():
        response = post_record(client, record())
    assert response.status_code == 202
    url = response.json()["url"]
    upload = client.get(url).json()
    assert upload["status"] == "done"
    (item,) = upload["items"]
    assert item["outcome"] == "stored"
    assert client.get(item["game_url"]).json()["verdict"] == "verified"
    assert Upload.objects.get().filename == "record.json"


@override_settings(RASPIS_MAX_UPLOAD_BYTES=1000)
def test_a_record_past_the_upload_limit_is_refused_with_413(
    client_of: Any, user: Any, record: Make
) -> None:
    response = post_record(client_of(user), record())
    assert response.status_code == 413
    assert findings_of(response)[0]["code"] == "request.too_large"
    assert Game.objects.count() == Upload.objects.count() == 0


def test_player_names_are_matched_without_case_and_surrounding_spaces(
    client_of: Any, user: Any, record: Make
) -> None:
    client = client_of(user)
    first, second = record(0), record(1)
    second["players"] = [" " + name.upper() + " " for name in first["players"]]
    post_record(client, first)
    assert post_record(client, second).status_code == 201
    assert Player.objects.count() == 4
    assert GameSeat.objects.filter(name=" " + first["players"][0].upper() + " ").exists()


def test_a_record_named_by_a_stored_ruleset_is_verified_under_it(
    client_of: Any, user: Any, record: Make
) -> None:
    client = client_of(user)
    created = client.post(
        "/api/rulesets/", {"name": "club", "preset": "classic", "options": {}}, format="json"
    )
    assert created.status_code == 201
    game = record()
    game["ruleset"] = "club"
    body = post_record(client, game).json()
    assert body["report"]["verdict"] == "verified"
    stored = Game.objects.get(pk=body["game"]["id"])
    assert (stored.ruleset_preset, stored.ruleset_name) == ("classic", "club")


def test_uploads_are_throttled_per_user(
    client_of: Any, user: Any, record: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.throttles import WriteThrottle

    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"upload": "1/min"})
    client = client_of(user)
    assert post_record(client, record(0)).status_code == 201
    response = post_record(client, record(1))
    assert response.status_code == 429
    (finding,) = findings_of(response)
    assert finding["code"] == "request.throttled"
    assert client.get("/api/games/").status_code == 200
