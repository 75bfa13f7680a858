"""Celery tasks of the upload pipeline: each takes primary keys and calls one service.

All are safe to run twice (``acks_late`` re-delivers a task whose worker died, the sweep
re-queues a stalled upload): splitting writes only the items missing, and a batch skips items
already done. A database or broker that is away makes them retry for as long as it takes
(``core.outages.RETRYING``): such a task is never acknowledged as failed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import IntegrityError

from core.outages import RETRYING, TRANSIENT
from uploads import services

#: Options of every upload task: time limits that fit a batch (``RASPIS_UPLOAD_TASK_TIME_LIMIT``,
#: from which the broker's visibility timeout is set too).
HEALING: dict[str, Any] = {
    **RETRYING,
    "soft_time_limit": settings.RASPIS_UPLOAD_TASK_TIME_LIMIT - 30,
    "time_limit": settings.RASPIS_UPLOAD_TASK_TIME_LIMIT,
}


#: A split retries on an outage, and on meeting the items of a split racing it.
SPLIT_RETRIED: tuple[type[Exception], ...] = (*TRANSIENT, IntegrityError)


@shared_task(**{**HEALING, "autoretry_for": SPLIT_RETRIED})
def upload_split(upload_id: int) -> int:
    """Split an upload into items and queue its batches; returns how many were queued.

    Two splits of one upload can race (the sweep beside a slow first one): the second to
    write a batch meets the first one's items (``IntegrityError``) and, retried, finds them
    written."""
    try:
        return len(services.upload_split(upload_id=upload_id, workers=WORKERS))
    except SPLIT_RETRIED:
        raise
    except Exception as exc:
        services.upload_fail(upload_id=upload_id, error=f"{type(exc).__name__}: {exc}")
        raise


@shared_task(**HEALING)
def upload_process(upload_id: int, batch: int) -> int:
    """Verify and store one batch of an upload; returns how many items it processed."""
    return services.upload_process(upload_id=upload_id, batch=batch)


@shared_task(**HEALING)
def uploads_resume() -> int:
    """Re-queue the uploads stalled past ``RASPIS_UPLOAD_STALL_SECONDS`` (celery beat);
    returns how many."""
    stalled_for = timedelta(seconds=settings.RASPIS_UPLOAD_STALL_SECONDS)
    return len(services.uploads_resume(stalled_for=stalled_for, workers=WORKERS))


#: What the upload services queue their work on.
WORKERS = services.Workers(split=upload_split.delay, process=upload_process.delay)
