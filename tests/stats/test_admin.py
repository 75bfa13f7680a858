"""The admin shows statistics read-only: derived rows are rebuilt, never edited."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Player

from .conftest import GAME_1, GAME_2, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(store: Any) -> Client:
    store([GAME_1])
    client = Client()
    client.force_login(User.objects.create(username="root", is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("model", ["playerstat", "rating", "headtohead", "leaderboardsnapshot"])
def test_each_statistics_list_opens(admin_client_: Client, model: str) -> None:
    assert admin_client_.get(f"/admin/stats/{model}/").status_code == 200


def test_a_statistics_row_cannot_be_added(admin_client_: Client) -> None:
    assert admin_client_.get("/admin/stats/playerstat/add/").status_code == 403


def test_a_players_page_shows_their_statistics_and_rating_chart(
    admin_client_: Client, store: Any
) -> None:
    store([GAME_2])
    anna = Player.objects.get(name="Anna")
    page = admin_client_.get(f"/admin/games/player/{anna.pk}/change/").content.decode()
    statistics = page[page.index('id="statistics"') :]
    assert "2 counted games, 1 won." in statistics
    assert '<th scope="row">classic</th><td>2</td><td>1</td>' in statistics
    assert "<td>50%</td>" in statistics and "<td>7.5</td>" in statistics
    chart = statistics[statistics.index('<figure class="chart" id="rating-1">') :]
    assert '<title id="rating-1-title">Rating (μ − 3σ) in classic, game by game</title>' in chart
    (points,) = re.findall(r'<polyline class="line series-0" points="([^"]+)"', chart)
    assert len(points.split()) == 2  # a point per game
    assert chart.count('<th scope="row">') == 2  # and a row of the table
    assert f"/api/players/{anna.pk}/stats/export.csv" in statistics


def test_a_player_without_counted_games_says_so(admin_client_: Client, store: Any) -> None:
    store([record(GAME_1, players=["Zoya", "Boris", "Vera"])], visibility="private")
    zoya = Player.objects.get(name="Zoya")
    page = admin_client_.get(f"/admin/games/player/{zoya.pk}/change/").content.decode()
    assert "No counted public game: this player has no statistics." in page
