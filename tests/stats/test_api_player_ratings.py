"""``GET /api/players/{id}/ratings/``: ratings per ruleset key, with their history."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from stats.apis import PlayerRatingsApi
from stats.models import Rating

from .conftest import conforms, player_id, won_by

pytestmark = pytest.mark.django_db


def test_it_answers_each_rating_with_its_history_in_played_order(
    api_client: APIClient, store: Any, django_assert_max_num_queries: Any
) -> None:
    may, march = store(
        [
            won_by("Anna", "Boris", "Vera", "2025-05-01T20:00:00Z"),
            won_by("Boris", "Anna", "Vera", "2025-03-01T20:00:00Z"),
        ]
    )
    target = f"/api/players/{player_id('Anna')}/ratings/"
    with django_assert_max_num_queries(2):
        response = api_client.get(target)
    data = response.json()
    conforms(PlayerRatingsApi.OutputSerializer, data, many=True)
    (classic,) = data
    assert classic["ruleset"] == "classic" and classic["games"] == 2
    assert [h["game"] for h in classic["history"]] == [march, may]
    assert classic["history"][-1]["mu"] == classic["mu"]
    stored = Rating.objects.get(player__name="Anna", ruleset="classic")
    assert stored.mu != round(stored.mu, 3)  # the row keeps every bit, the answer 3 places
    assert (classic["mu"], classic["sigma"]) == (round(stored.mu, 3), round(stored.sigma, 3))
    assert classic["ordinal"] == pytest.approx(classic["mu"] - 3 * classic["sigma"], abs=0.002)


def test_it_filters_by_ruleset(api_client: APIClient, store: Any) -> None:
    store([won_by("Anna", "Boris", "Vera", "2025-05-01T20:00:00Z")])
    target = f"/api/players/{player_id('Anna')}/ratings/"
    assert api_client.get(target, {"ruleset": "oh_hell"}).json() == []


def test_it_answers_304_while_the_etag_holds(api_client: APIClient, store: Any) -> None:
    store([won_by("Anna", "Boris", "Vera", "2025-05-01T20:00:00Z")])
    target = f"/api/players/{player_id('Vera')}/ratings/"
    etag = api_client.get(target)["ETag"]
    assert api_client.get(target, HTTP_IF_NONE_MATCH=etag).status_code == 304
    store([won_by("Vera", "Boris", "Anna", "2025-06-01T20:00:00Z")])
    assert api_client.get(target, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_it_answers_404_for_an_unknown_player(api_client: APIClient) -> None:
    assert api_client.get("/api/players/424242/ratings/").status_code == 404
