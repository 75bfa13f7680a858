"""Celery tasks of the upload pipeline: each takes primary keys and calls one service.

Both are safe to run twice (``acks_late`` re-delivers a task whose worker died): splitting
happens once per upload, and a batch skips items already done.
"""

from __future__ import annotations

from celery import shared_task

from uploads import services


@shared_task
def upload_split(upload_id: int) -> int:
    """Split an upload into items and queue its batches; returns how many were queued."""
    try:
        return len(services.upload_split(upload_id=upload_id, workers=WORKERS))
    except Exception as exc:
        services.upload_fail(upload_id=upload_id, error=f"{type(exc).__name__}: {exc}")
        raise


@shared_task
def upload_process(upload_id: int, batch: int) -> int:
    """Verify and store one batch of an upload; returns how many items it processed."""
    return services.upload_process(upload_id=upload_id, batch=batch)


#: What the upload services queue their work on.
WORKERS = services.Workers(split=upload_split.delay, process=upload_process.delay)
