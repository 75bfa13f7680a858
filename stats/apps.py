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
    """Queue the statistics update of ``game_ids`` in the games' own transaction, and send the
    task that takes the queue once it commits.

    Queued with the change, the games are in the queue exactly when the change is committed:
    a worker killed between the commit and the task's sending leaves them queued for the
    next task, which celery beat sends every five minutes at the latest (``stats/beat.py``).
    Queued after the commit, they were lost then; and an upload's batch waited for a commit
    of its own for them, flushed to disk, after each of its cheap ones.
    """
    from core.outages import send_on_commit
    from stats.services import updates_queue
    from stats.tasks import stats_update_pending

    updates_queue(game_ids=game_ids)
    send_on_commit(stats_update_pending.delay)
