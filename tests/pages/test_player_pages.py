"""The player, head-to-head and leaderboard pages on the server: what they show, in which
language, and the 404s of unknown players, rulesets and ids."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.models import Player
from games.services import player_merge
from stats.models import Rating
from stats.services import stats_update_pending
from tests.stats.conftest import GAME_1, record, store_records, won_by

pytestmark = pytest.mark.django_db


def pk(name: str) -> int:
    return Player.objects.get(name=name).pk


@pytest.fixture
def season() -> list[int]:
    """Anna, Boris and Vera at one table six times; Gleb twice with Anna and Boris."""
    games = [
        won_by(*order, f"2025-03-{day:02d}T20:00:00Z")
        for day, order in enumerate(
            [
                ("Anna", "Boris", "Vera"),
                ("Anna", "Vera", "Boris"),
                ("Boris", "Anna", "Vera"),
                ("Anna", "Boris", "Vera"),
                ("Vera", "Anna", "Boris"),
                ("Anna", "Boris", "Vera"),
                ("Boris", "Anna", "Gleb"),
                ("Anna", "Gleb", "Boris"),
            ],
            start=1,
        )
    ]
    return store_records(games)


@pytest.fixture
def gates(settings: Any, season: list[int]) -> None:
    """Five games to be listed; σ between Vera's (six games) and Anna's (eight) to be ranked."""
    sigma = dict(Rating.objects.values_list("player__name", "sigma"))
    settings.RASPIS_LEADERBOARD_MIN_GAMES = 5
    settings.RASPIS_LEADERBOARD_MAX_SIGMA = (sigma["Anna"] + sigma["Vera"]) / 2
    settings.RASPIS_LEADERBOARD_ACTIVE_DAYS = 36500


def test_a_players_page_has_results_charts_and_recent_games(
    client: Client, season: list[int]
) -> None:
    response = client.get(f"/players/{pk('Anna')}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Anna</h1>" in html
    # Five charts, each an image with a title and its figures as a table.
    assert html.count('role="img"') == 5
    for title in (
        "Rating over time",
        "Bid − taken",
        "Exact bids by cards in hand",
        "Exact bids by deal kind",
        "Month by month",
    ):
        assert "<title id=" in html and title in html
    assert html.count("The figures as a table") == 5
    # Recent games link to the games, latest first.
    linked = [int(n) for n in re.findall(r'href="/games/(\d+)/"', html)]
    assert linked[:3] == season[::-1][:3]
    assert f'href="/players/{pk("Anna")}/vs/{pk("Boris")}/"' in html


def test_svg_coordinates_stay_numbers_in_russian(client: Client, season: list[int]) -> None:
    html = client.get(f"/players/{pk('Anna')}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Рейтинг со временем" in html and "Последние игры" in html
    for points in re.findall(r'points="([^"]+)"', html):
        assert re.fullmatch(r"[\d.]+,[\d.]+( [\d.]+,[\d.]+)*", points), points
    assert not re.search(r'<rect[^>]* (x|y|width|height)="[\d]+,\d', html)


def test_a_ruleset_tab_shows_that_rulesets_figures(client: Client, season: list[int]) -> None:
    anna = pk("Anna")
    assert client.get(f"/players/{anna}/?ruleset=classic").status_code == 200
    assert client.get(f"/players/{anna}/?ruleset=podkidnoy").status_code == 404


def test_unknown_private_and_merged_players(client: Client, season: list[int]) -> None:
    assert client.get("/players/424242/").status_code == 404
    assert client.get("/players/0/").status_code == 404
    assert client.get("/players/abc/").status_code == 404
    store_records([record(GAME_1, players=["Hidden", "Anna", "Boris"])], visibility="private")
    assert client.get(f"/players/{pk('Hidden')}/").status_code == 404
    gleb, vera = Player.objects.get(name="Gleb"), Player.objects.get(name="Vera")
    player_merge(source=gleb, target=vera, by=None)
    stats_update_pending()  # queued by the merge; its task would run on commit
    response = client.get(f"/players/{gleb.pk}/")
    assert (response.status_code, response["Location"]) == (302, f"/players/{vera.pk}/")
    assert client.get(response["Location"]).status_code == 200


def test_head_to_head_from_the_first_players_side(client: Client, season: list[int]) -> None:
    anna, boris = pk("Anna"), pk("Boris")
    response = client.get(f"/players/{anna}/vs/{boris}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Who finished above whom" in html
    assert len(re.findall(r'href="/games/\d+/"', html)) == 8
    # Anna finished above Boris in six of their eight games.
    assert re.search(r'class="value">6</span><span class="name">Anna ahead', html)
    assert re.search(r'class="value">2</span><span class="name">Boris ahead', html)


def test_head_to_head_refuses_bad_pairs(client: Client, season: list[int]) -> None:
    anna = pk("Anna")
    assert client.get(f"/players/{anna}/vs/{anna}/").status_code == 404
    assert client.get(f"/players/{anna}/vs/424242/").status_code == 404
    store_records([record(GAME_1, players=["Daria", "Egor", "Zoya"])])
    html = client.get(f"/players/{anna}/vs/{pk('Daria')}/").content.decode()
    assert "have not sat at one table" in html


def test_the_board_ranks_and_marks_provisional_players(client: Client, gates: None) -> None:
    response = client.get("/leaderboards/classic/")
    assert response.status_code == 200
    html = response.content.decode()
    row = (
        r'<tr( class="provisional[^"]*")?[^>]*>\s*<td class="num">(.*?)</td>\s*'
        r'<th scope="row"><a href="/players/(\d+)/">(\w+)</a>'
    )
    rows = re.findall(row, html)
    ranked = [(rank, name) for provisional, rank, _, name in rows if not provisional]
    provisional = [name for mark, _, _, name in rows if mark]
    assert [name for _, name in ranked] == ["Anna", "Boris"]
    assert [rank for rank, _ in ranked] == ["1", "2"]
    assert provisional == ["Vera"]
    assert html.count('class="provisional-mark"') == 1
    assert "Gleb" not in html
    assert "someone other than their uploader stands behind" in html
    russian = client.get("/leaderboards/classic/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "ручается кто-то, кроме загрузившего" in russian


def test_a_signed_in_player_is_told_what_they_miss(
    client: Client, gates: None, django_user_model: Any
) -> None:
    gleb = django_user_model.objects.create_user(username="Gleb", password="x")
    client.force_login(gleb)
    html = client.get("/leaderboards/classic/").content.decode()
    assert "3 more games to be listed." in html
    vera = django_user_model.objects.create_user(username="vera", password="x")
    client.force_login(vera)
    html = client.get("/leaderboards/classic/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Ваш рейтинг пока предварительный" in html
    anna = django_user_model.objects.create_user(username="Anna", password="x")
    client.force_login(anna)
    assert 'id="standing-title"' not in client.get("/leaderboards/classic/").content.decode()


def test_unknown_boards_are_404_and_the_list_links_each(client: Client, season: list[int]) -> None:
    assert client.get("/leaderboards/podkidnoy/").status_code == 404
    assert client.get("/leaderboards/%00/").status_code == 404
    html = client.get("/leaderboards/").content.decode()
    assert 'href="/leaderboards/classic/"' in html


def test_the_players_list_finds_players_by_name(client: Client, season: list[int]) -> None:
    html = client.get("/players/").content.decode()
    assert [int(n) for n in re.findall(r'href="/players/(\d+)/"', html)] == [
        pk(n) for n in ("Anna", "Boris", "Gleb", "Vera")
    ]
    html = client.get("/players/?search=er", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert re.findall(r'href="/players/(\d+)/"', html) == [str(pk("Vera"))]
    html = client.get("/players/?search=Zed").content.decode()
    assert "No player with public games has “Zed” in their name." in html
    assert client.get("/players/?page=999").status_code == 200
    assert client.get("/players/?search=%00").status_code == 400
    assert client.get(f"/players/{pk('Anna')}/?ruleset=%00").status_code == 404


def test_a_player_who_stopped_playing_is_told_to_play_again(
    client: Client, gates: None, settings: Any, django_user_model: Any
) -> None:
    settings.RASPIS_LEADERBOARD_ACTIVE_DAYS = 30  # every game of the season is older
    client.force_login(django_user_model.objects.create_user(username="Anna", password="x"))
    html = client.get("/leaderboards/classic/").content.decode()
    assert "Nobody has enough recent games" in html
    assert re.search(r"Your last game was on [^<]*2025, more than 30 days ago", html)


def test_the_account_page_links_the_player_of_the_same_name(
    client: Client, season: list[int], django_user_model: Any
) -> None:
    client.force_login(django_user_model.objects.create_user(username="gleb", password="x"))
    assert f'href="/players/{pk("Gleb")}/"' in client.get("/accounts/").content.decode()
    client.force_login(django_user_model.objects.create_user(username="Zed", password="x"))
    assert (
        "No player with public games has your username" in client.get("/accounts/").content.decode()
    )
