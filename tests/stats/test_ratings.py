"""OpenSkill ratings (Plackett-Luce on the final totals, ties as ties), game by game in
played order, replayed from the insertion point when a game arrives late or leaves."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Game, Player, StoredRuleset
from games.services import dispute_open, dispute_resolve
from stats.models import Rating, RatingEntry
from stats.services import stats_recompute, stats_update_games

from .conftest import GAME_2, SHORT, won_by

pytestmark = pytest.mark.django_db


def ratings() -> dict[str, tuple[float, float, int]]:
    return {
        r.player.name: (r.mu, r.sigma, r.games)
        for r in Rating.objects.select_related("player").filter(ruleset="classic")
    }


def history(name: str) -> list[tuple[int, float]]:
    return list(
        RatingEntry.objects.filter(player__name=name)
        .order_by("when", "game_id")
        .values_list("game_id", "mu")
    )


def test_a_player_who_always_wins_ends_first(store: Any) -> None:
    others = ["Boris", "Vera", "Gleb", "Daria"]
    store(
        [
            won_by("Anna", others[i % 4], others[(i + 1) % 4], f"2025-01-{i + 1:02d}T20:00:00Z")
            for i in range(8)
        ]
    )
    ranked = list(
        Rating.objects.filter(ruleset="classic")
        .order_by("-ordinal")
        .values_list("player__name", "ordinal", "sigma", "games")
    )
    assert ranked[0][0] == "Anna"
    assert ranked[0][3] == 8
    sigmas = [e.sigma for e in RatingEntry.objects.filter(player__name="Anna").order_by("when")]
    assert sigmas == sorted(sigmas, reverse=True)  # each game makes the rating surer
    mus = [mu for _, mu in history("Anna")]
    assert mus == sorted(mus)  # and every win lifts it


def test_a_shared_win_rates_the_winners_as_a_tie(store: Any) -> None:
    store([GAME_2])
    now = ratings()
    assert now["Boris"] == now["Anna"]
    assert now["Anna"][0] > 25 > now["Vera"][0]


def test_ordinal_is_mu_minus_three_sigma(store: Any) -> None:
    store([GAME_2])
    for r in Rating.objects.all():
        assert r.ordinal == pytest.approx(r.mu - 3 * r.sigma)


def test_inserting_an_earlier_game_replays_the_later_ones(store: Any) -> None:
    march, may = store(
        [
            won_by("Anna", "Boris", "Vera", "2025-03-01T20:00:00Z"),
            won_by("Boris", "Vera", "Anna", "2025-05-01T20:00:00Z"),
        ]
    )
    may_before = RatingEntry.objects.get(game_id=may, player__name="Anna").mu
    (april,) = store([won_by("Vera", "Anna", "Boris", "2025-04-01T20:00:00Z")])
    assert [game for game, _ in history("Anna")] == [march, april, may]
    assert RatingEntry.objects.get(game_id=may, player__name="Anna").mu != may_before
    inserted = ratings(), sorted(RatingEntry.objects.values_list("game_id", "player_id", "mu"))
    stats_recompute()
    assert (ratings(), sorted(RatingEntry.objects.values_list("game_id", "player_id", "mu"))) == (
        inserted
    )


def test_a_game_overturned_in_review_leaves_the_ratings(store: Any) -> None:
    first, second = store(
        [
            won_by("Anna", "Boris", "Vera", "2025-03-01T20:00:00Z"),
            won_by("Vera", "Boris", "Anna", "2025-03-02T20:00:00Z"),
        ]
    )
    staff = User.objects.create_user("reviewer", is_staff=True)
    game = Game.objects.get(pk=first)
    dispute = dispute_open(game=game, by=staff, reason="Anna revoked")
    dispute_resolve(dispute=dispute, decision="upheld", note="", by=staff)
    stats_update_games(game_ids=[first])
    assert [game for game, _ in history("Anna")] == [second]
    assert ratings()["Anna"][2] == 1
    after = ratings()
    stats_recompute()
    assert ratings() == after


def test_each_ruleset_key_has_its_own_rating(store: Any) -> None:
    StoredRuleset.objects.create(name="club", preset="classic", options=SHORT["options"])
    store([won_by("Anna", "Boris", "Vera", "2025-03-01T20:00:00Z")])
    store([won_by("Boris", "Anna", "Vera", "2025-03-02T20:00:00Z") | {"ruleset": "club"}])
    anna = Player.objects.get(name="Anna")
    assert dict(Rating.objects.filter(player=anna).values_list("ruleset", "games")) == {
        "classic": 1,
        "club": 1,
    }
