"""The periodic job of the uploads, for celery beat (``CELERY_BEAT_SCHEDULE``).

Kept free of Django imports so that ``config/settings.py`` can read it.
"""

from __future__ import annotations

from typing import Any


def beat_schedule(every: float) -> dict[str, dict[str, Any]]:
    """The sweep that re-queues stalled uploads, sent every ``every`` seconds: it is what
    finishes an upload whose task the broker lost, so it runs often, and an idle service pays
    one indexed query for it."""
    return {
        "uploads-resume": {
            "task": "uploads.tasks.uploads_resume",
            "schedule": every,
            # A sweep that waited behind a long queue is stale: the next one will come.
            "options": {"expires": every},
        },
    }
