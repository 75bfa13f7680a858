"""The default leaderboard gates against a realistic club: a year of weekly evenings, 300
simulated games among 20 members at tables of three to five, stored by the real service.

A weekly club plays about one game of 36 deals per member and evening, so each member has
45 to 75 games after 300; the gates must rank them all by then (docs/stats.md).
"""

from __future__ import annotations

import datetime as dt
import math
import random
from typing import Any

import pytest
from django.utils import timezone

from replay.simulate import simulate_game
from stats import selectors
from stats.models import Rating

pytestmark = pytest.mark.django_db

MEMBERS = [f"Member {i:02d}" for i in range(1, 21)]


def club_year(games: int, seed: int) -> list[dict[str, Any]]:
    """``games`` score-sheet records among ``MEMBERS``, one every day or so of the last year."""
    rng = random.Random(seed)
    start = timezone.now() - dt.timedelta(days=360)
    records = []
    for i in range(games):
        table = rng.sample(MEMBERS, rng.choice((3, 4, 4, 5)))
        record = simulate_game("classic", len(table), seed * 1000 + i, names=table, sheet=True)
        when = start + dt.timedelta(hours=28 * i)
        record["meta"] = {"played_at": when.isoformat(), "external_id": f"club-{seed}-{i}"}
        records.append(record)
    return records


def test_a_year_of_a_weekly_club_fills_the_board_with_the_default_gates(store: Any) -> None:
    games = club_year(300, seed=7)
    gates = selectors.leaderboard_gates()
    strict = selectors.Gates(min_games=10, max_sigma=4.0, active_days=365)
    store(games[:100])
    early = selectors.leaderboard_rows(ruleset="classic", gates=gates, limit=None)
    early_strict = selectors.leaderboard_rows(ruleset="classic", gates=strict, limit=None)
    # Four months in (about 20 games each), most members are ranked; σ at most 4, the former
    # default, which takes 45 to 80 games, ranked nobody yet.
    assert len(early) > len(MEMBERS) / 2
    assert early_strict == []
    store(games[100:])
    ranked, provisional = selectors.leaderboard_board(ruleset="classic", gates=gates)
    assert sorted(e["player"]["name"] for e in ranked) == MEMBERS
    assert provisional == []
    assert [e["rank"] for e in ranked] == list(range(1, 21))
    ordinals = [e["ordinal"] for e in ranked]
    assert ordinals == sorted(ordinals, reverse=True)
    assert ranked == selectors.leaderboard_rows(ruleset="classic", gates=gates, limit=None)


def test_newcomers_are_provisional_and_told_what_they_miss(store: Any) -> None:
    store(club_year(24, seed=3))
    gates = selectors.leaderboard_gates()
    ranked, provisional = selectors.leaderboard_board(ruleset="classic", gates=gates)
    ratings = {r.player.name: r for r in Rating.objects.select_related("player")}
    listed = {e["player"]["name"] for e in ranked + provisional}
    assert listed == {n for n, r in ratings.items() if r.games >= gates.min_games}
    assert {e["player"]["name"] for e in provisional} == {
        n for n in listed if ratings[n].sigma > gates.max_sigma
    }
    assert provisional and all(e["rank"] is None for e in provisional)
    for name, rating in ratings.items():
        standing = selectors.leaderboard_standing(
            player_id=rating.player_id, ruleset="classic", gates=gates
        )
        assert standing.games == rating.games
        assert standing.games_missing == max(0, gates.min_games - rating.games)
        assert not standing.inactive
        if name in {e["player"]["name"] for e in provisional}:
            assert standing.settle_games is not None and standing.settle_games >= 1


def test_the_estimate_of_games_to_settle_follows_the_players_pace() -> None:
    # Precision grows linearly: from 1/σ0² to 1/σ² in `games` games.
    start = selectors.START_SIGMA
    sigma = (start**-2 + 5 * 0.001) ** -0.5  # five games at a pace of 0.001
    needed = (6.0**-2 - start**-2) / 0.001
    assert selectors.games_to_settle(sigma=sigma, games=5, max_sigma=6.0) == math.ceil(needed) - 5
    assert selectors.games_to_settle(sigma=5.0, games=30, max_sigma=6.0) == 0
    assert selectors.games_to_settle(sigma=start, games=0, max_sigma=6.0) is None
    assert selectors.games_to_settle(sigma=7.0, games=5, max_sigma=0.0) is None
