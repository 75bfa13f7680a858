from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class StatsConfig(AppConfig):
    """Statistics, OpenSkill ratings and leaderboards, derived only from counted games."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from games.signals import game_changed, game_verified

        game_verified.connect(games_touched, dispatch_uid="stats.games_verified")
        game_changed.connect(games_touched, dispatch_uid="stats.games_changed")


def games_touched(sender: object, game_ids: list[int], **kwargs: Any) -> None:
    """Queue the statistics update of ``game_ids`` and send the task that takes the queue,
    once the current transaction commits.

    The signals are sent after the games' transaction committed, so this normally queues at
    once; inside another transaction it waits for that one too. The games go into the
    queue before the task is sent, so the task (or one before it) finds them.
    """
    from django.db import transaction

    from stats.services import updates_queue
    from stats.tasks import stats_update_pending

    ids = list(game_ids)

    def queue() -> None:
        updates_queue(game_ids=ids)
        stats_update_pending.delay()

    transaction.on_commit(queue)
