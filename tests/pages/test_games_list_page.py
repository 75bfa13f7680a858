"""The games list page: the API's filters, pages of 50, a bad filter named."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from web.views import GAMES_PER_PAGE

pytestmark = pytest.mark.django_db


def _ids(page: str) -> list[int]:
    return [int(i) for i in re.findall(r'<td><a href="/games/(\d+)/">', page)]


def test_it_filters_by_verdict_as_the_api_does(make_game: Callable[..., int]) -> None:
    legal = make_game()
    illegal = make_game(corrupt="revoke")
    client = Client()
    assert sorted(_ids(client.get("/games/").content.decode())) == sorted([legal, illegal])
    assert _ids(client.get("/games/?verdict=illegal").content.decode()) == [illegal]
    assert _ids(client.get("/games/?player=anna").content.decode()) != []
    assert _ids(client.get("/games/?player=nobody").content.decode()) == []


def test_a_bad_filter_is_a_400_that_names_it(make_game: Callable[..., int]) -> None:
    make_game()
    response = Client().get("/games/?verdict=great&played_from=yesterday")
    assert response.status_code == 400
    page = response.content.decode()
    assert "verdict:" in page and "played_from:" in page
    assert _ids(page) == []


def test_it_pages_through_the_games_keeping_the_filters(
    make_record: Callable[..., dict[str, Any]], make_game: Callable[..., int]
) -> None:
    for i in range(GAMES_PER_PAGE + 1):
        record = make_record(seed=0)
        record["meta"]["external_id"] = f"list-{i}"
        make_game(record)
    first = Client().get("/games/?verdict=verified").content.decode()
    assert len(_ids(first)) == GAMES_PER_PAGE
    assert 'href="?verdict=verified&amp;page=2"' in first
    second = Client().get("/games/?verdict=verified&page=2").content.decode()
    assert len(_ids(second)) == 1
