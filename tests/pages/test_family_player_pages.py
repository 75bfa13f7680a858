"""A player's page with rummy and poker games: each family's figures in a section of its own,
in Russian and English, and the trick-taking bidding figures only where there were bids."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Player
from replay.poker.simulate import simulate_record
from replay.rummy.simulate import simulate_game
from tests.service.conftest import post_record
from tests.stats.conftest import GAME_1, named, record, store_records

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna() -> int:
    store_records(
        [
            GAME_1,
            named(simulate_game("joker_rummy", 3, 1)),
            named(simulate_game("joker_rummy", 3, 2)),
            named(simulate_record("club_stud", 3, 8, 5)),
        ]
    )
    return Player.objects.get(name="Anna").pk


def _page(anna: int, query: str = "", language: str = "en") -> str:
    response = Client(headers={"accept-language": language}).get(f"/players/{anna}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def test_the_rummy_ruleset_shows_the_rummy_figures_only(anna: int) -> None:
    page = _page(anna, "?ruleset=joker_rummy")
    assert 'id="rummy-figures"' in page and "average worth of the opening" in page
    assert 'id="poker-figures"' not in page
    assert "exact bids" not in page  # no bids in rummy
    assert 'id="difference"' not in page and 'id="rating"' in page


def test_the_poker_ruleset_shows_hands_and_the_categories_shown_down(anna: int) -> None:
    page = _page(anna, "?ruleset=club_stud")
    assert 'id="poker-figures"' in page and "showdowns won" in page
    assert 'id="categories"' in page and "Hands shown down" in page
    assert 'id="rummy-figures"' not in page


def test_all_rulesets_show_every_family_in_russian(anna: int) -> None:
    page = _page(anna, language="ru")
    assert "Рамми «Джокер»" in page and "Покер с джокером" in page
    assert "средняя сумма открытия" in page and "выигранных вскрытий" in page
    assert "joker_rummy" in page and "club_stud" in page


def test_rummy_and_club_poker_have_leaderboards_and_casino_none(anna: int) -> None:
    store_records([named(simulate_record("joker_poker", 3, 4, 2))])
    listed = Client().get("/leaderboards/").content.decode()
    assert "joker_rummy" in listed and "club_stud" in listed and "joker_poker" not in listed
    for key in ("joker_rummy", "club_stud"):
        assert Client().get(f"/leaderboards/{key}/").status_code == 200
    assert Client().get("/leaderboards/joker_poker/").status_code == 404


def test_a_game_page_links_the_players_that_have_a_page(anna: int, user: Any) -> None:
    client = APIClient()
    client.force_authenticate(user)
    private = record(GAME_1, players=["Anna", "Boris", "Zoe"])
    game = post_record(client, private, visibility="private").json()["game"]["id"]
    page = Client().get(f"/games/{game}/")
    assert page.status_code == 404  # private: its uploader's only
    logged = Client()
    logged.force_login(user)
    text = logged.get(f"/games/{game}/").content.decode()
    assert f'href="/players/{anna}/"' in text
    zoe = Player.objects.get(name="Zoe").pk
    assert f'href="/players/{zoe}/"' not in text and "Zoe" in text  # no public game, no page


def test_the_games_list_filters_by_family_in_the_reader_s_words(anna: int) -> None:
    page = Client(headers={"accept-language": "ru"}).get("/games/?family=poker")
    assert page.status_code == 200
    text = page.content.decode()
    assert '<option value="poker" selected>покер с джокером</option>' in text
    assert "club_stud" in text and "joker_rummy" not in text.split("<tbody>")[1]
    wrong = Client().get("/games/?family=chess")
    assert wrong.status_code == 400 and "chess" in wrong.content.decode()
