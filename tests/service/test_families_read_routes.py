"""Every read route answers for games of every family: stored rummy and poker games are
listed, exported and counted, and their players' statistics, head to head, ratings and
leaderboards read as the trick-taking family's do."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Player
from replay.poker.simulate import simulate_record
from replay.rummy.simulate import simulate_game
from tests.stats.conftest import GAME_1, named, store_records

pytestmark = pytest.mark.django_db


@pytest.fixture
def ids() -> dict[str, int]:
    store_records(
        [
            GAME_1,
            named(simulate_game("joker_rummy", 3, 1)),
            named(simulate_record("club_stud", 3, 5, 2)),
            named(simulate_record("joker_poker", 3, 4, 3)),
        ]
    )
    return {p.name: p.pk for p in Player.objects.all()}


@pytest.mark.parametrize(
    "route",
    [
        "/api/games/",
        "/api/games/?family=rummy",
        "/api/games/export.jsonl",
        "/api/games/totals.csv",
        "/api/games/totals.jsonl?family=poker",
        "/api/players/",
        "/api/players/{anna}/",
        "/api/players/{anna}/stats/?ruleset=joker_rummy",
        "/api/players/{anna}/stats/?ruleset=joker_poker",
        "/api/players/{anna}/ratings/?ruleset=club_stud",
        "/api/players/{anna}/versus/{boris}/",
        "/api/players/{anna}/stats/export.csv",
        "/api/leaderboards/joker_rummy/",
        "/api/leaderboards/club_stud/export.csv",
    ],
)
def test_a_read_route_answers_with_every_family_stored(ids: dict[str, int], route: str) -> None:
    url = route.format(anna=ids["Anna"], boris=ids["Boris"])
    response = APIClient().get(url)
    assert response.status_code == 200, (url, response.content[:300])
    if url.startswith("/api/games/?"):
        families = {g["family"] for g in response.json()["results"]}
        assert families == {"rummy"}
