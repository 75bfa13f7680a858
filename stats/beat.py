"""The periodic jobs of the statistics, for celery beat (``CELERY_BEAT_SCHEDULE``).

Kept free of Django imports so that ``config/settings.py`` can read it.
"""

from __future__ import annotations

from typing import Any

from celery.schedules import crontab

BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    # Changed games are queued with their change and the task is sent once it commits; a
    # process that dies in between leaves them queued, and this takes them. An empty queue
    # costs it a lock and a query.
    "stats-update-pending": {
        "task": "stats.tasks.stats_update_pending",
        "schedule": crontab(minute="*/5"),
    },
    # Percentiles move whenever anyone plays, so they are refreshed for everyone at once.
    "stats-percentiles": {
        "task": "stats.tasks.stats_percentiles",
        "schedule": crontab(minute=15),
    },
    # Just after midnight (CELERY_TIMEZONE): the day's leaderboards, once the day is over.
    "stats-leaderboard-snapshot": {
        "task": "stats.tasks.leaderboard_snapshot",
        "schedule": crontab(minute=5, hour=0),
    },
}
