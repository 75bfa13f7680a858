"""``GET /api/players/{id}/stats/``: a player's statistics from the precomputed rows."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from stats import selectors
from stats.apis import PlayerStatsApi
from stats.services import percentiles_update

from .conftest import GAME_1, conforms, player_id, record

pytestmark = pytest.mark.django_db


def url(name: str) -> str:
    return f"/api/players/{player_id(name)}/stats/"


def test_it_answers_the_figures_of_all_games(api_client: APIClient, two_games: Any) -> None:
    response = api_client.get(url("Anna"))
    assert response.status_code == 200
    data = response.json()
    assert (data["games"], data["wins"], data["win_rate"]) == (2, 1, 0.5)
    assert data["bidding"]["exact"] == 3
    assert [m["month"] for m in data["months"]] == ["2025-03", "2025-04"]
    assert (data["ruleset"], data["since"], data["until"]) == (None, None, None)


def test_its_answer_has_the_documented_shape(api_client: APIClient, two_games: Any) -> None:
    conforms(PlayerStatsApi.OutputSerializer, api_client.get(url("Boris")).json())


def test_it_filters_by_ruleset_and_months(api_client: APIClient, two_games: Any) -> None:
    april = api_client.get(url("Anna"), {"ruleset": "classic", "since": "2025-04"}).json()
    assert (april["ruleset"], april["since"], april["games"], april["wins"]) == (
        "classic",
        "2025-04",
        1,
        1,
    )
    other = api_client.get(url("Anna"), {"ruleset": "oh_hell"}).json()
    assert other["games"] == 0 and other["win_rate"] is None


def test_it_uses_at_most_two_queries(
    api_client: APIClient, two_games: Any, django_assert_max_num_queries: Any
) -> None:
    target = url("Anna")
    with django_assert_max_num_queries(1):
        assert api_client.get(target).status_code == 200
    with django_assert_max_num_queries(1):
        assert api_client.get(target, {"since": "2025-01", "until": "2025-12"}).status_code == 200


def test_it_answers_304_while_the_etag_holds(api_client: APIClient, store: Any) -> None:
    store([GAME_1])
    first = api_client.get(url("Anna"))
    etag = first["ETag"]
    assert first["Cache-Control"] == "no-cache"
    again = api_client.get(url("Anna"), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and not again.content
    assert again["ETag"] == etag
    store([record(GAME_1, meta={"played_at": "2025-05-01T19:00:00Z"})])
    changed = api_client.get(url("Anna"), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag and changed.json()["games"] == 2


def test_it_answers_304_when_not_modified_since(api_client: APIClient, two_games: Any) -> None:
    first = api_client.get(url("Anna"))
    stamp = first["Last-Modified"]
    assert api_client.get(url("Anna"), HTTP_IF_MODIFIED_SINCE=stamp).status_code == 304
    old = "Mon, 01 Jan 2001 00:00:00 GMT"
    assert api_client.get(url("Anna"), HTTP_IF_MODIFIED_SINCE=old).status_code == 200


def test_an_etag_wins_over_a_date_and_matches_weakly(api_client: APIClient, two_games: Any) -> None:
    first = api_client.get(url("Anna"))
    etag, stamp = first["ETag"], first["Last-Modified"]
    weak = api_client.get(url("Anna"), HTTP_IF_NONE_MATCH=f'"other", W/{etag}')
    assert weak.status_code == 304 and weak["ETag"] == etag
    assert api_client.get(url("Anna"), HTTP_IF_NONE_MATCH="*").status_code == 304
    stale = api_client.get(url("Anna"), HTTP_IF_NONE_MATCH='"other"', HTTP_IF_MODIFIED_SINCE=stamp)
    assert stale.status_code == 200


def test_it_refuses_a_precondition_that_no_longer_holds_with_findings(
    api_client: APIClient, two_games: Any
) -> None:
    etag = api_client.get(url("Anna"))["ETag"]
    assert api_client.get(url("Anna"), HTTP_IF_MATCH=etag).status_code == 200
    refused = api_client.get(url("Anna"), HTTP_IF_MATCH='"other"')
    assert refused.status_code == 412
    assert refused.json()["findings"][0]["code"] == "request.error"


def test_it_refuses_a_month_that_is_not_yyyy_mm(api_client: APIClient, two_games: Any) -> None:
    response = api_client.get(url("Anna"), {"since": "2025-13"})
    assert response.status_code == 400
    finding = response.json()["findings"][0]
    assert (finding["code"], finding["path"]) == ("request.invalid", "/since")
    assert "expected a month as YYYY-MM" in finding["message"]
    until = api_client.get(url("Anna"), {"until": "April"}).json()["findings"][0]
    assert until["path"] == "/until" and "YYYY-MM, e.g. 2026-11" in until["message"]
    reversed_range = api_client.get(url("Anna"), {"since": "2025-05", "until": "2025-04"})
    assert reversed_range.status_code == 400


def test_it_answers_404_for_a_player_without_counted_games(
    api_client: APIClient, store: Any, user: Any
) -> None:
    store([GAME_1], visibility="private", user=user)
    response = api_client.get(url("Anna"))
    assert response.status_code == 404
    assert response.json()["findings"][0]["code"] == "request.not_found"
    assert api_client.get("/api/players/999999/stats/").status_code == 404


def test_the_stored_answer_is_the_one_derived_from_the_rows(
    api_client: APIClient, two_games: Any, settings: Any
) -> None:
    settings.RASPIS_LEADERBOARD_MIN_GAMES = 1
    percentiles_update()
    for name in ("Anna", "Boris", "Vera"):
        for ruleset in ("", "classic"):
            pid = player_id(name)
            stored = selectors.player_stats_body(player_id=pid, ruleset=ruleset)
            assert stored is not None
            rows = selectors.player_stat_rows(player_id=pid, ruleset=ruleset).rows
            derived = selectors.player_stats_data(
                player_id=pid, ruleset=ruleset, since="", until="", rows=rows
            )
            assert json.loads(stored.body) == derived
            assert derived["percentiles"]
            answer = api_client.get(url(name), {"ruleset": ruleset}).json()
            assert answer == json.loads(json.dumps(derived))
