"""Leaderboard gates from settings, and the jobs celery beat runs: percentiles, snapshots."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.conf import settings as django_settings

from config.celery import app
from stats import selectors
from stats.models import ALL, LeaderboardSnapshot, PlayerStat, Rating
from stats.services import leaderboard_snapshot_create, percentiles_update

from .conftest import won_by

pytestmark = pytest.mark.django_db

MARCH = dt.datetime(2025, 3, 31, tzinfo=dt.UTC)


@pytest.fixture
def season(store: Any) -> None:
    """Anna wins four games, Vera two, Boris none; Gleb plays once, in January."""
    store(
        [
            won_by("Anna", "Boris", "Vera", "2025-03-01T20:00:00Z"),
            won_by("Anna", "Vera", "Boris", "2025-03-02T20:00:00Z"),
            won_by("Vera", "Anna", "Boris", "2025-03-03T20:00:00Z"),
            won_by("Anna", "Vera", "Boris", "2025-03-04T20:00:00Z"),
            won_by("Vera", "Boris", "Anna", "2025-03-05T20:00:00Z"),
            won_by("Anna", "Boris", "Gleb", "2025-01-05T20:00:00Z"),
        ]
    )


def board(**gates: Any) -> list[str]:
    entries = selectors.leaderboard_rows(
        ruleset="classic", gates=selectors.Gates(**gates), limit=None, now=MARCH
    )
    return [e["player"]["name"] for e in entries]


def test_the_leaderboard_ranks_by_ordinal(season: None) -> None:
    names = board(min_games=0, max_sigma=100, active_days=3650)
    ordinals = dict(Rating.objects.values_list("player__name", "ordinal"))
    assert names == sorted(ordinals, key=lambda n: -ordinals[n])
    assert names[0] == "Anna"


def test_players_with_too_few_games_are_left_out(season: None) -> None:
    assert "Gleb" not in board(min_games=2, max_sigma=100, active_days=3650)
    assert board(min_games=7, max_sigma=100, active_days=3650) == []


def test_players_with_an_unsettled_rating_are_left_out(season: None) -> None:
    sigmas = dict(Rating.objects.values_list("player__name", "sigma"))
    between = (sigmas["Gleb"] + sigmas["Anna"]) / 2
    assert sigmas["Anna"] < between < sigmas["Gleb"]
    assert "Gleb" not in board(min_games=0, max_sigma=between, active_days=3650)
    assert "Anna" in board(min_games=0, max_sigma=between, active_days=3650)


def test_players_without_a_recent_game_are_left_out(season: None) -> None:
    # Gleb's only game was on 5 January; 30 days before 31 March is 1 March.
    assert set(board(min_games=0, max_sigma=100, active_days=30)) == {"Anna", "Vera", "Boris"}


def test_the_gates_come_from_settings(settings: Any) -> None:
    settings.RASPIS_LEADERBOARD_MIN_GAMES = 3
    settings.RASPIS_LEADERBOARD_MAX_SIGMA = 5.5
    settings.RASPIS_LEADERBOARD_ACTIVE_DAYS = 30
    assert selectors.leaderboard_gates().as_dict() == {
        "min_games": 3,
        "max_sigma": 5.5,
        "active_days": 30,
    }


def test_percentiles_rank_players_past_the_games_gate(season: None, settings: Any) -> None:
    settings.RASPIS_LEADERBOARD_MIN_GAMES = 2
    assert percentiles_update() > 0
    rows = {
        r.player.name: r.percentiles
        for r in PlayerStat.objects.filter(ruleset="classic", period=ALL).select_related("player")
    }
    assert rows["Gleb"] == {}
    # Win rates: Anna 4/5, Vera 2/5, Boris 0/5, by the mid-rank of three players.
    assert [rows[n]["win_rate"] for n in ("Boris", "Vera", "Anna")] == [0.167, 0.5, 0.833]
    assert rows["Anna"]["rating"] == 0.833
    overall = PlayerStat.objects.get(player__name="Anna", ruleset=ALL, period=ALL)
    assert set(overall.percentiles) == {"win_rate", "exact_rate", "points_per_deal"}
    assert percentiles_update() == 0  # nothing moved since


def test_the_daily_snapshot_stores_each_rulesets_board(season: None, settings: Any) -> None:
    settings.RASPIS_LEADERBOARD_MIN_GAMES = 2
    settings.RASPIS_LEADERBOARD_ACTIVE_DAYS = 3650
    settings.RASPIS_LEADERBOARD_MAX_SIGMA = 100.0
    day = dt.date(2025, 4, 1)
    assert leaderboard_snapshot_create(date=day) == 1
    assert leaderboard_snapshot_create(date=day) == 1  # a second run replaces, not adds
    snapshot = LeaderboardSnapshot.objects.get()
    assert snapshot.gates["min_games"] == 2
    names = [e["player"]["name"] for e in snapshot.entries]
    assert names[0] == "Anna" and "Gleb" not in names


def test_beat_runs_registered_tasks() -> None:
    app.loader.import_default_modules()
    schedule = django_settings.CELERY_BEAT_SCHEDULE
    assert {"stats-percentiles", "stats-leaderboard-snapshot", "stats-update-pending"} <= set(
        schedule
    )
    for entry in schedule.values():
        assert entry["task"] in app.tasks
