"""Which games count (``stats.services`` docstring): public games whose result stands."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Game, GameStatus, Player, PlayerAlias
from games.services import dispute_open, dispute_resolve, player_merge
from stats.models import ALL, PlayerStat, Rating
from stats.services import stats_update_games

from .conftest import GAME_1, GAME_2, record

pytestmark = pytest.mark.django_db


def games_of(name: str) -> int:
    row = PlayerStat.objects.filter(player__name=name, ruleset=ALL, period=ALL).first()
    return 0 if row is None else row.games


@pytest.fixture
def staff() -> User:
    return User.objects.create_user("reviewer", is_staff=True)


def decide(game_id: int, decision: str, by: User, scores: list[int] | None = None) -> None:
    dispute = dispute_open(game=Game.objects.get(pk=game_id), by=by, reason="wrong")
    dispute_resolve(dispute=dispute, decision=decision, note="", corrected_scores=scores, by=by)
    stats_update_games(game_ids=[game_id])


def test_a_verified_public_game_counts(store: Any) -> None:
    store([GAME_1])
    assert games_of("Anna") == 1


def test_a_private_game_counts_nowhere(store: Any, user: User) -> None:
    store([GAME_1], visibility="private", user=user)
    assert PlayerStat.objects.count() == 0
    assert Rating.objects.count() == 0


def test_a_flagged_game_does_not_count(store: Any) -> None:
    (game_id,) = store([record(GAME_1, totals=[1, -8, 10])])
    assert Game.objects.get(pk=game_id).status == GameStatus.FLAGGED
    assert PlayerStat.objects.count() == 0


def test_a_game_overturned_in_review_leaves_the_statistics(store: Any, staff: User) -> None:
    first, _ = store([GAME_1, GAME_2])
    decide(first, "upheld", staff)
    assert games_of("Anna") == 1
    assert games_of("Vera") == 1
    vera = PlayerStat.objects.get(player__name="Vera", ruleset=ALL, period=ALL)
    assert (vera.wins, vera.best_total) == (0, -9)  # her only win was in the game overturned


def test_an_open_dispute_does_not_take_the_game_out(store: Any, staff: User) -> None:
    (game_id,) = store([GAME_1])
    dispute_open(game=Game.objects.get(pk=game_id), by=staff, reason="wrong")
    stats_update_games(game_ids=[game_id])
    assert Game.objects.get(pk=game_id).status == GameStatus.DISPUTED
    assert games_of("Anna") == 1


def test_a_rejected_dispute_keeps_the_game(store: Any, staff: User) -> None:
    (game_id,) = store([GAME_1])
    decide(game_id, "rejected", staff)
    assert games_of("Anna") == 1


def test_corrected_totals_count_with_their_places(store: Any, staff: User) -> None:
    (game_id,) = store([record(GAME_1, totals=[1, -8, 10])])
    assert games_of("Anna") == 0
    decide(game_id, "corrected", staff, scores=[20, -8, 10])
    anna = PlayerStat.objects.get(player__name="Anna", ruleset=ALL, period=ALL)
    assert (anna.games, anna.wins, anna.best_total) == (1, 1, 20)
    assert anna.counters["balance"] == 38 * 10_000  # (20 − −8) + (20 − 10) at 1 a point


def test_a_merge_moves_the_statistics_to_the_target(store: Any, staff: User) -> None:
    store([GAME_1])
    store([record(GAME_2, players=["Boris", "Anya", "Vera"])])
    anna, anya = Player.objects.get(name="Anna"), Player.objects.get(name="Anya")
    player_merge(source=anya, target=anna, by=staff)
    stats_update_games(game_ids=list(Game.objects.values_list("pk", flat=True)))
    assert games_of("Anna") == 2
    assert not PlayerStat.objects.filter(player=anya).exists()
    assert Rating.objects.get(player=anna).games == 2


def test_a_game_where_one_player_holds_two_seats_does_not_count(store: Any) -> None:
    store([GAME_1])
    PlayerAlias.objects.create(key="anya", name="Anya", player=Player.objects.get(name="Anna"))
    store([record(GAME_2, players=["Boris", "Anya", "Anna"])])
    assert games_of("Anna") == 1
