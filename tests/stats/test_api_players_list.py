"""``GET /api/players/``: players with counted games, searched by name."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from stats.apis import PlayerListApi

from .conftest import GAME_1, conforms, record

pytestmark = pytest.mark.django_db


def test_it_lists_players_with_counted_games_by_name(api_client: APIClient, store: Any) -> None:
    store([GAME_1])
    data = api_client.get("/api/players/").json()
    assert data["count"] == 3
    assert [p["name"] for p in data["results"]] == ["Anna", "Boris", "Vera"]
    assert data["results"][0]["games"] == 1
    conforms(PlayerListApi.OutputSerializer, data["results"], many=True)


def test_it_searches_by_part_of_a_name_in_any_case(api_client: APIClient, store: Any) -> None:
    store([GAME_1])
    data = api_client.get("/api/players/", {"search": "OR"}).json()
    assert [p["name"] for p in data["results"]] == ["Boris"]


def test_it_leaves_out_players_known_only_from_private_games(
    api_client: APIClient, store: Any, user: Any
) -> None:
    store([GAME_1])
    store([record(GAME_1, players=["Gleb", "Daria", "Egor"])], visibility="private", user=user)
    names = [p["name"] for p in api_client.get("/api/players/").json()["results"]]
    assert names == ["Anna", "Boris", "Vera"]


def test_it_answers_304_while_the_page_is_unchanged(api_client: APIClient, store: Any) -> None:
    store([GAME_1])
    etag = api_client.get("/api/players/")["ETag"]
    assert api_client.get("/api/players/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert api_client.get("/api/players/?page_size=1", HTTP_IF_NONE_MATCH=etag).status_code == 200
