"""Celery tasks of the statistics: each takes primary keys (or nothing) and calls a service.

All are safe to run twice (``acks_late`` re-delivers a task whose worker died): an update
makes the statistics match the games as they are, and the periodic ones overwrite. So a
database or broker that is away makes them retry (``core.outages.RETRYING``).
"""

from __future__ import annotations

from celery import shared_task

from core.outages import RETRYING
from stats import services


@shared_task(**RETRYING)
def stats_update_games(game_ids: list[int]) -> int:
    """Update the statistics and ratings of the games' players now; returns the games changed.

    The signals sent this for every change before they queued their games for
    ``stats_update_pending``: it stays for such messages still in a broker, and for an update
    run by hand."""
    return services.stats_update_games(game_ids=game_ids)


@shared_task(**RETRYING)
def stats_update_pending() -> int:
    """Update the statistics of every game queued (``services.updates_queue``); returns the
    games changed. The signals of ``games`` queue their games and send this task."""
    return services.stats_update_pending()


@shared_task(**RETRYING)
def stats_recompute() -> int:
    """Rebuild all statistics and ratings from scratch; returns the games counted."""
    return services.stats_recompute().games


@shared_task(**RETRYING)
def stats_percentiles() -> int:
    """Refresh every player's percentiles; returns the rows changed (celery beat)."""
    return services.percentiles_update()


@shared_task(**RETRYING)
def leaderboard_snapshot() -> int:
    """Store today's leaderboards; returns the rulesets stored (celery beat, daily)."""
    return services.leaderboard_snapshot_create()
