"""``GET /api/players/{id}/``: a player's overall results and rating per ruleset key."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Game, Player, StoredRuleset
from games.services import player_merge
from stats.apis import PlayerDetailApi
from stats.services import stats_update_games

from .conftest import GAME_1, GAME_2, SHORT, conforms, player_id, record

pytestmark = pytest.mark.django_db


def test_it_answers_results_and_ratings_per_ruleset(
    api_client: APIClient, two_games: Any, django_assert_max_num_queries: Any
) -> None:
    target = f"/api/players/{player_id('Anna')}/"
    with django_assert_max_num_queries(2):
        response = api_client.get(target)
    assert response.status_code == 200
    data = response.json()
    conforms(PlayerDetailApi.OutputSerializer, data)
    assert (data["name"], data["games"], data["merged_into"]) == ("Anna", 2, None)
    (classic,) = data["rulesets"]
    assert (classic["ruleset"], classic["games"], classic["rating"]["games"]) == ("classic", 2, 2)
    assert (classic["average_total"], classic["best_total"]) == (7.5, 15)


def test_totals_are_averaged_within_a_ruleset_only(api_client: APIClient, store: Any) -> None:
    """Totals of two ruleset keys may be on different scales (classic and joker54): over
    every key there is no average or best total, in any answer."""
    StoredRuleset.objects.create(name="club", preset="classic", options=SHORT["options"])
    store([GAME_1, record(GAME_2, ruleset="club")])
    anna = player_id("Anna")
    detail = api_client.get(f"/api/players/{anna}/").json()
    assert (detail["average_total"], detail["best_total"]) == (None, None)
    assert {r["ruleset"]: r["best_total"] for r in detail["rulesets"]} == {
        "classic": 0,
        "club": 15,
    }
    for params in ({}, {"since": "2025-01"}):
        stats = api_client.get(f"/api/players/{anna}/stats/", params).json()
        assert (stats["average_total"], stats["best_total"]) == (None, None)
        assert {m["average_total"] for m in stats["months"]} == {None}
    classic = api_client.get(f"/api/players/{anna}/stats/", {"ruleset": "classic"}).json()
    assert (classic["average_total"], classic["best_total"]) == (0, 0)


def test_it_answers_304_while_the_etag_holds(api_client: APIClient, two_games: Any) -> None:
    target = f"/api/players/{player_id('Vera')}/"
    etag = api_client.get(target)["ETag"]
    assert api_client.get(target, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_it_answers_404_for_an_unknown_player(api_client: APIClient) -> None:
    assert api_client.get("/api/players/424242/").status_code == 404


def test_it_shows_the_games_of_a_merged_name_under_the_target(
    api_client: APIClient, store: Any
) -> None:
    store([GAME_1, record(GAME_2, players=["Boris", "Anya", "Vera"])])
    staff = User.objects.create_user("reviewer", is_staff=True)
    anya = Player.objects.get(name="Anya")
    player_merge(source=anya, target=Player.objects.get(name="Anna"), by=staff)
    stats_update_games(game_ids=list(Game.objects.values_list("pk", flat=True)))
    assert api_client.get(f"/api/players/{player_id('Anna')}/").json()["games"] == 2
    assert api_client.get(f"/api/players/{anya.pk}/").status_code == 404
