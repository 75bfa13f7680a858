"""``GET /api/leaderboards/{ruleset}/``: the gated ranking by rating, live or of a day."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from rest_framework.test import APIClient

from stats.apis import LeaderboardApi
from stats.services import leaderboard_snapshot_create

from .conftest import conforms, won_by

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_gates(settings: Any) -> None:
    settings.RASPIS_LEADERBOARD_MIN_GAMES = 1
    settings.RASPIS_LEADERBOARD_MAX_SIGMA = 100.0
    settings.RASPIS_LEADERBOARD_ACTIVE_DAYS = 36500


@pytest.fixture
def games(store: Any) -> None:
    store(
        [
            won_by("Anna", "Boris", "Vera", "2025-03-01T20:00:00Z"),
            won_by("Anna", "Vera", "Boris", "2025-03-02T20:00:00Z"),
            won_by("Vera", "Boris", "Gleb", "2025-03-03T20:00:00Z"),
        ]
    )


def test_it_ranks_players_past_the_gates_by_ordinal(
    api_client: APIClient, open_gates: None, games: None, django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(1):
        data = api_client.get("/api/leaderboards/classic/").json()
    conforms(LeaderboardApi.OutputSerializer, data)
    assert data["date"] is None and data["gates"]["min_games"] == 1
    ordinals = [e["ordinal"] for e in data["entries"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [e["rank"] for e in data["entries"]] == [1, 2, 3, 4]
    assert data["entries"][0]["player"]["name"] == "Anna"


def test_it_applies_the_games_gate_from_settings(
    api_client: APIClient, open_gates: None, games: None, settings: Any
) -> None:
    settings.RASPIS_LEADERBOARD_MIN_GAMES = 2
    names = [
        e["player"]["name"] for e in api_client.get("/api/leaderboards/classic/").json()["entries"]
    ]
    assert "Gleb" not in names and len(names) == 3


def test_it_limits_the_entries(api_client: APIClient, open_gates: None, games: None) -> None:
    data = api_client.get("/api/leaderboards/classic/", {"limit": 2}).json()
    assert len(data["entries"]) == 2
    assert api_client.get("/api/leaderboards/classic/", {"limit": 0}).status_code == 400


def test_it_answers_a_stored_days_snapshot(
    api_client: APIClient, open_gates: None, games: None
) -> None:
    leaderboard_snapshot_create(date=dt.date(2025, 3, 4))
    data = api_client.get("/api/leaderboards/classic/", {"date": "2025-03-04"}).json()
    assert data["date"] == "2025-03-04"
    assert data["entries"][0]["player"]["name"] == "Anna"
    missing = api_client.get("/api/leaderboards/classic/", {"date": "2025-03-05"})
    assert missing.status_code == 404


def test_an_unknown_ruleset_has_an_empty_board(api_client: APIClient, open_gates: None) -> None:
    assert api_client.get("/api/leaderboards/nothing/").json()["entries"] == []


def test_it_answers_304_while_the_etag_holds(
    api_client: APIClient, open_gates: None, games: None, store: Any
) -> None:
    etag = api_client.get("/api/leaderboards/classic/")["ETag"]
    assert api_client.get("/api/leaderboards/classic/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    store([won_by("Gleb", "Anna", "Boris", "2025-03-04T20:00:00Z")])
    assert api_client.get("/api/leaderboards/classic/", HTTP_IF_NONE_MATCH=etag).status_code == 200
