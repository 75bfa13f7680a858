"""``GET /api/players/{a}/versus/{b}/``: two players' games at one table."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from stats.apis import PlayerVersusApi

from .conftest import GAME_1, conforms, player_id, record

pytestmark = pytest.mark.django_db


def test_it_answers_from_the_first_players_side(
    api_client: APIClient, two_games: Any, django_assert_max_num_queries: Any
) -> None:
    anna, boris = player_id("Anna"), player_id("Boris")
    with django_assert_max_num_queries(1):
        data = api_client.get(f"/api/players/{anna}/versus/{boris}/").json()
    conforms(PlayerVersusApi.OutputSerializer, data)
    assert data["player"] == {"id": anna, "name": "Anna"}
    assert data["opponent"] == {"id": boris, "name": "Boris"}
    assert (data["games"], data["ahead"], data["behind"], data["ties"]) == (2, 1, 0, 1)
    assert (data["difference"], data["average_difference"]) == (8, 4.0)
    assert [r["ruleset"] for r in data["by_ruleset"]] == ["classic"]
    other_side = api_client.get(f"/api/players/{boris}/versus/{anna}/").json()
    assert (other_side["ahead"], other_side["behind"], other_side["difference"]) == (0, 1, -8)


def test_players_who_never_met_have_no_games_together(api_client: APIClient, store: Any) -> None:
    store([GAME_1, record(GAME_1, players=["Gleb", "Daria", "Egor"])])
    data = api_client.get(f"/api/players/{player_id('Anna')}/versus/{player_id('Gleb')}/").json()
    assert (data["games"], data["ahead_rate"], data["by_ruleset"]) == (0, None, [])


def test_it_refuses_a_player_against_themselves(api_client: APIClient, two_games: Any) -> None:
    anna = player_id("Anna")
    response = api_client.get(f"/api/players/{anna}/versus/{anna}/")
    assert response.status_code == 400
    assert response.json()["findings"][0]["path"] == "/opponent_id"


def test_it_answers_404_for_an_unknown_player(api_client: APIClient, two_games: Any) -> None:
    assert api_client.get(f"/api/players/{player_id('Anna')}/versus/424242/").status_code == 404


def test_it_answers_304_while_the_etag_holds(api_client: APIClient, two_games: Any) -> None:
    target = f"/api/players/{player_id('Anna')}/versus/{player_id('Vera')}/"
    etag = api_client.get(target)["ETag"]
    assert api_client.get(target, HTTP_IF_NONE_MATCH=etag).status_code == 304
