"""A worker process killed (SIGKILL) in the middle of an upload loses nothing and doubles
nothing: its batch's transaction rolls back, the broker hands the unacknowledged task to the
next worker, and every record ends up stored exactly once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings
from django.db import connection

from games.models import Game, GameRecord
from tests.service.conftest import text_of
from uploads import tasks
from uploads.models import ItemOutcome, Upload, UploadItem
from uploads.services import Workers, upload_create, upload_split

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
VISIBILITY_TIMEOUT = 3


def database_url() -> str:
    db = connection.settings_dict
    user = db["USER"] or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{user}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )


def worker(queue: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_QUEUE": queue,
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY", "test"),
    }
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo"]
    command += ["-Q", queue, "-l", "WARNING", "--without-gossip", "--without-mingle"]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def held_by_the_dead(queue: str) -> bool:
    """Whether a message of ``queue`` is delivered but unacknowledged (kombu's Redis hash)."""
    broker = redis.Redis.from_url(django_settings.CELERY_BROKER_URL)
    return any(queue.encode() in value for value in broker.hvals("unacked"))


def counts(upload_id: int) -> Upload:
    return Upload.objects.get(pk=upload_id)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the worker process needs a server")
def test_a_killed_worker_loses_no_record_and_stores_none_twice(
    user: Any, record: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    queue = f"test-killed-{uuid.uuid4().hex[:8]}"
    base = [record(i) for i in range(4)]
    records = [
        dict(base[i % 4], meta={**base[i % 4]["meta"], "external_id": f"k-{i}"}) for i in range(40)
    ]
    data = "\n".join(text_of(r) for r in records).encode()
    # The upload is stored and split here; its batches go to this test's queue.
    workers = Workers(
        split=lambda upload_id: upload_split(upload_id=upload_id, workers=workers),
        process=lambda *a: tasks.upload_process.apply_async(a, queue=queue),
    )
    settings.RASPIS_UPLOAD_BATCH_SIZE = 5
    upload = upload_create(
        uploaded_by=user, data=data, filename="k.jsonl", visibility="public", workers=workers
    )

    first = worker(queue)
    try:
        deadline = time.monotonic() + 60
        # Kill it in the middle of a batch: after it stored one, while it holds the next
        # (between two batches it holds nothing, and there would be nothing to redeliver).
        # It is stopped before the second look, so that what it holds then, it holds when
        # it dies: between a look and the kill it could otherwise finish its batch.
        while True:
            assert time.monotonic() < deadline, "the first worker stored nothing"
            if counts(upload.pk).done >= 5 and held_by_the_dead(queue):
                os.kill(first.pid, signal.SIGSTOP)
                if held_by_the_dead(queue):
                    break
                os.kill(first.pid, signal.SIGCONT)
            time.sleep(0.005)
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        if first.poll() is None:
            first.kill()
    assert counts(upload.pk).status != "done", "the upload finished before the kill"
    assert held_by_the_dead(queue), "the dead worker held no task of the queue"

    # The task the dead worker held becomes visible again after the visibility timeout.
    time.sleep(VISIBILITY_TIMEOUT + 1)
    second = worker(queue)
    try:
        deadline = time.monotonic() + 90
        while counts(upload.pk).status != "done":
            assert time.monotonic() < deadline, f"not done: {counts(upload.pk).__dict__}"
            time.sleep(0.1)
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=60)

    done = counts(upload.pk)
    assert (done.total, done.done, done.failed, done.duplicates) == (40, 40, 0, 0)
    assert not UploadItem.objects.filter(outcome=ItemOutcome.PENDING).exists()
    assert Game.objects.count() == GameRecord.objects.count() == 40
    assert UploadItem.objects.filter(outcome=ItemOutcome.STORED).count() == 40
