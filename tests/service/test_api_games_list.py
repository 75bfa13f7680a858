"""GET /api/games/: visible games, filtered and paginated."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from games.models import Player, StoredRuleset
from tests.service.conftest import findings_of, post_record, text_of

pytestmark = pytest.mark.django_db
Make = Callable[..., dict[str, Any]]


@pytest.fixture
def games(client_of: Any, user: Any, other_user: Any, record: Make, illegal_record: Any) -> dict:
    """Anna's public game 0 and private game 1, Boris's public illegal game."""
    a = client_of(user)
    first = record(0)
    first["meta"]["played_at"] = "2026-01-10T19:00:00+03:00"
    private = record(1)
    private["players"] = ["Dmitri", "Elena", "Fyodor", "Galina"]
    private["meta"]["played_at"] = "2026-03-01T19:00:00+00:00"
    ids = {
        "public": post_record(a, first).json()["game"]["id"],
        "private": post_record(a, private, visibility="private").json()["game"]["id"],
        "illegal": post_record(client_of(other_user), illegal_record).json()["game"]["id"],
    }
    return ids


def ids(response: Any) -> set[int]:
    assert response.status_code == 200, response.json()
    return {game["id"] for game in response.json()["results"]}


def test_anonymous_users_see_public_games_only(api_client: APIClient, games: dict) -> None:
    assert ids(api_client.get("/api/games/")) == {games["public"], games["illegal"]}


def test_a_user_sees_their_own_private_games_but_not_others(
    client_of: Any, user: Any, other_user: Any, games: dict
) -> None:
    assert games["private"] in ids(client_of(user).get("/api/games/"))
    assert games["private"] not in ids(client_of(other_user).get("/api/games/"))


def test_staff_see_every_game(client_of: Any, staff_user: Any, games: dict) -> None:
    assert ids(client_of(staff_user).get("/api/games/")) == set(games.values())


def test_games_are_filtered_by_player_name_without_case(
    client_of: Any, user: Any, games: dict
) -> None:
    client = client_of(user)
    assert ids(client.get("/api/games/", {"player": "  dmitri "})) == {games["private"]}


def test_games_are_filtered_by_player_id(client_of: Any, user: Any, games: dict) -> None:
    client = client_of(user)
    dmitri = Player.objects.get(name="Dmitri")
    assert ids(client.get("/api/games/", {"player": str(dmitri.pk)})) == {games["private"]}


def test_a_merged_players_id_finds_the_games_of_the_player_it_was_merged_into(
    api_client: APIClient, games: dict
) -> None:
    source = Player.objects.create(name="Old name", key="old name")
    target = Player.objects.get(
        name=Player.objects.filter(seats__game=games["illegal"]).first().name
    )
    source.merged_into = target
    source.save()
    assert games["illegal"] in ids(api_client.get("/api/games/", {"player": str(source.pk)}))


@pytest.mark.parametrize(
    ("params", "path", "words"),
    [
        ({"player": "Nobody"}, "/player", "no player has the name or id 'Nobody'"),
        ({"player": "987654321"}, "/player", "no player"),
        ({"ruleset": "clasic"}, "/ruleset", "neither a preset nor a stored ruleset"),
        ({"played_from": "last week"}, "/played_from", "expected ISO 8601: a date (2026-11-20)"),
        ({"played_to": "20.11.2026"}, "/played_to", "or a date and time"),
        ({"upload": "12345"}, "/upload", "no upload '12345' of yours"),
        ({"upload": "seven"}, "/upload", "no upload"),
    ],
)
def test_a_filter_value_that_names_nothing_is_a_located_400(
    client_of: Any, user: Any, games: dict, params: dict, path: str, words: str
) -> None:
    for url in ("/api/games/", "/api/games/export.jsonl"):
        response = client_of(user).get(url, params)
        assert response.status_code == 400
        (finding,) = findings_of(response)
        assert finding["path"] == path and words in finding["message"], finding


def test_every_bad_filter_is_reported_at_once(api_client: APIClient, games: dict) -> None:
    response = api_client.get("/api/games/", {"player": "Nobody", "ruleset": "x", "upload": "1"})
    assert {f["path"] for f in findings_of(response)} == {"/player", "/ruleset", "/upload"}


def test_a_stored_rulesets_name_is_a_known_ruleset(api_client: APIClient, games: dict) -> None:
    StoredRuleset.objects.create(name="club-2026", preset="classic")
    assert ids(api_client.get("/api/games/", {"ruleset": "club-2026"})) == set()


def test_games_are_filtered_by_the_upload_they_came_from(
    client_of: Any, user: Any, other_user: Any, record: Make, games: dict, committed: Any
) -> None:
    client = client_of(user)
    lines = "\n".join(text_of(r) for r in (record(2), record(3), record(0))).encode()
    with committed():
        created = client.post(
            "/api/uploads/",
            {"file": SimpleUploadedFile("games.jsonl", lines)},
            format="multipart",
        ).json()
    items = client.get(created["url"]).json()["items"]
    assert [i["outcome"] for i in items] == ["stored", "stored", "replaced"]
    expected = {i["game"] for i in items}
    assert games["public"] in expected
    assert ids(client.get("/api/games/", {"upload": created["id"]})) == expected
    assert ids(client.get("/api/games/", {"upload": created["id"], "verdict": "illegal"})) == set()
    refused = client_of(other_user).get("/api/games/", {"upload": created["id"]})
    assert refused.status_code == 400 and findings_of(refused)[0]["path"] == "/upload"


def test_games_are_filtered_by_verdict_status_and_ruleset(
    api_client: APIClient, games: dict
) -> None:
    assert ids(api_client.get("/api/games/", {"verdict": "illegal"})) == {games["illegal"]}
    assert ids(api_client.get("/api/games/", {"status": "flagged"})) == {games["illegal"]}
    assert ids(api_client.get("/api/games/", {"ruleset": "classic"})) == {
        games["public"],
        games["illegal"],
    }
    assert ids(api_client.get("/api/games/", {"ruleset": "detsky"})) == set()


def test_games_are_filtered_by_the_date_played(client_of: Any, user: Any, games: dict) -> None:
    client = client_of(user)
    window = {"played_from": "2026-01-01T00:00:00Z", "played_to": "2026-02-01T00:00:00Z"}
    assert ids(client.get("/api/games/", window)) == {games["public"]}
    assert ids(client.get("/api/games/", {"played_from": "2026-02-15"})) == {games["private"]}


def test_a_date_alone_is_its_whole_day(client_of: Any, user: Any, games: dict) -> None:
    """Game 0 was played on 2026-01-10 at 16:00 UTC, game 1 on 2026-03-01 at 19:00 UTC."""
    client = client_of(user)
    one_day = {"played_from": "2026-01-10", "played_to": "2026-01-10"}
    assert ids(client.get("/api/games/", one_day)) == {games["public"]}
    assert games["public"] not in ids(client.get("/api/games/", {"played_to": "2026-01-09"}))
    assert ids(client.get("/api/games/", {"played_from": "2026-03-01"})) == {games["private"]}
    assert ids(client.get("/api/games/", {"played_from": "2026-03-02"})) == set()
    response = client.get("/api/games/", {"played_to": "2026-02-30"})
    assert response.status_code == 400
    assert [f["path"] for f in findings_of(response)] == ["/played_to"]


def test_a_bad_filter_is_refused_with_a_finding(api_client: APIClient, games: dict) -> None:
    response = api_client.get("/api/games/", {"verdict": "great", "played_from": "soon"})
    assert response.status_code == 400
    paths = {(f["code"], f["path"]) for f in findings_of(response)}
    assert paths == {("request.invalid", "/verdict"), ("request.invalid", "/played_from")}


def test_the_list_is_paginated(api_client: APIClient, games: dict) -> None:
    page = api_client.get("/api/games/", {"page_size": 1}).json()
    assert page["count"] == 2 and len(page["results"]) == 1 and page["next"]
    assert api_client.get("/api/games/", {"page": 9}).status_code == 404


def test_each_game_lists_its_seats(api_client: APIClient, games: dict, record: Make) -> None:
    listed = {g["id"]: g for g in api_client.get("/api/games/").json()["results"]}
    seats = listed[games["public"]]["seats"]
    assert [s["name"] for s in seats] == record(0)["players"]
    assert sum(s["winner"] for s in seats) >= 1
