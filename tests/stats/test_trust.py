"""Ratings worth trusting (docs/trust.md): a game is rated only when someone other than its
uploader stands behind it: staff, an organiser of a club staff trust, or a player at the
table whose link to their name was approved."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Club, Game, Player
from games.services import club_trust
from replay.simulate import simulate_game
from stats.models import GameFact, Rating
from stats.services import stats_update_pending

from .conftest import GAME_1, store_records

pytestmark = pytest.mark.django_db

SHORT = {"preset": "classic", "options": {"schedule": [[1, "regular"], [2, "regular"]]}}


@pytest.fixture(autouse=True)
def open_gates(settings: Any) -> None:
    settings.RASPIS_LEADERBOARD_MIN_GAMES = 1
    settings.RASPIS_LEADERBOARD_MAX_SIGMA = 100.0
    settings.RASPIS_LEADERBOARD_ACTIVE_DAYS = 36500


def forged(count: int) -> list[dict[str, Any]]:
    """Simulated games, each with its winning seat renamed "Mallory"."""
    records = []
    for seed in range(count):
        record = simulate_game(SHORT, 3, seed)
        running = record["deals"][-1]["running"]
        record["players"][running.index(max(running))] = "Mallory"
        records.append(record)
    return records


def board(client: APIClient) -> list[str]:
    entries = client.get("/api/leaderboards/classic/").json()["entries"]
    return [e["player"]["name"] for e in entries]


def account(name: str, **fields: Any) -> User:
    return User.objects.create_user(username=name, password=None, **fields)


def client_of(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture(scope="module")
def seven_hundred_fifty() -> list[dict[str, Any]]:
    return forged(750)


def test_one_account_uploading_750_forged_games_does_not_reach_the_leaderboard(
    api_client: APIClient, seven_hundred_fifty: list[dict[str, Any]]
) -> None:
    ids = store_records(seven_hundred_fifty, user=account("mallory"))
    assert len(ids) == 750
    assert Game.objects.filter(status="verified").count() == 750
    assert GameFact.objects.count() == 750  # counted in statistics, rated nowhere
    assert not GameFact.objects.filter(vouched=True).exists()
    assert board(api_client) == []
    assert not Rating.objects.exists()


def test_the_same_games_from_a_trusted_clubs_organiser_are_rated(
    api_client: APIClient, seven_hundred_fifty: list[dict[str, Any]]
) -> None:
    organiser = account("olga")
    club = Club.objects.create(name="Club")
    club.organisers.add(organiser)
    store_records(seven_hundred_fifty[:50], user=organiser)
    assert board(api_client) == []
    staff = account("gleb", is_staff=True)
    club_trust(club=club, by=staff)
    stats_update_pending()
    assert board(api_client)[0] == "Mallory"
    club_trust(club=club, by=staff, trusted=False)
    stats_update_pending()
    assert board(api_client) == []


def test_a_linked_player_at_the_table_confirms_a_game_into_the_ratings(
    api_client: APIClient,
) -> None:
    (game_id,) = store_records([GAME_1], user=account("anna"))
    client = client_of(account("boris"))
    link = client.post(f"/api/players/{Player.objects.get(name='Boris').pk}/link/")
    assert (link.status_code, link.json()["approved"]) == (201, False)
    assert client.post(f"/api/games/{game_id}/confirm/").status_code == 201
    stats_update_pending()
    assert board(api_client) == []  # the link is not approved yet

    # the account linked cannot approve its own link, nor can another plain account
    assert client.post(f"/api/player-links/{link.json()['id']}/approve/").status_code == 403
    other = client_of(account("vera"))
    assert other.post(f"/api/player-links/{link.json()['id']}/approve/").status_code == 403

    staff = client_of(account("gleb", is_staff=True))
    assert [entry["id"] for entry in staff.get("/api/player-links/").json()] == [link.json()["id"]]
    approved = staff.post(f"/api/player-links/{link.json()['id']}/approve/")
    assert (approved.status_code, approved.json()["approved"]) == (200, True)
    stats_update_pending()
    assert sorted(board(api_client)) == ["Anna", "Boris", "Vera"]


def test_the_uploader_and_players_not_at_the_table_cannot_confirm(
    django_user_model: Any,
) -> None:
    anna = account("anna")
    (game_id,) = store_records([GAME_1], user=anna)
    anna_client = client_of(anna)
    assert (
        anna_client.post(f"/api/players/{Player.objects.get(name='Anna').pk}/link/").status_code
        == 201
    )
    refused = anna_client.post(f"/api/games/{game_id}/confirm/")
    assert refused.status_code == 403
    assert refused.json()["findings"][0]["code"] == "request.forbidden"

    gleb = client_of(account("gleb"))
    stranger = Player.objects.create(name="Stranger", key="stranger")
    assert gleb.post(f"/api/players/{stranger.pk}/link/").status_code == 201
    assert gleb.post(f"/api/games/{game_id}/confirm/").status_code == 403
    assert gleb.post(f"/api/players/{stranger.pk}/link/").status_code == 201  # again: harmless
    taken = client_of(account("boris")).post(f"/api/players/{stranger.pk}/link/")
    assert taken.status_code == 409
