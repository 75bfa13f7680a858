"""A real Celery worker, through Redis, takes a bulk upload from POST to every game stored."""

from __future__ import annotations

import time
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from config.celery import app
from games.models import Game, GameRecord
from tests.service.conftest import text_of
from uploads.models import Upload

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def wait_done(upload_id: int, seconds: float) -> Upload:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        upload = Upload.objects.get(pk=upload_id)
        if upload.status in ("done", "failed"):
            return upload
        time.sleep(0.1)
    raise AssertionError(f"upload {upload_id} not done after {seconds} s")


def uploaded_by_a_worker(client: Any, name: str, data: bytes) -> Upload:
    """The upload of ``data`` as a file ``name``, once a real worker has finished it."""
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        response = client.post(
            "/api/uploads/", {"file": SimpleUploadedFile(name, data)}, format="multipart"
        )
        assert response.status_code == 202
        return wait_done(response.json()["id"], 60)


@override_settings(RASPIS_UPLOAD_BATCH_SIZE=3)
def test_a_worker_processes_a_bulk_upload_end_to_end(
    client_of: Any, user: Any, record: Any, illegal_record: Any
) -> None:
    records = [record(i) for i in range(4)]
    for i, extra in enumerate(records[:3]):
        extra = dict(extra, meta={**extra["meta"], "external_id": f"copy-{i}"}, first_dealer=1)
        records.append(extra)
    lines = [text_of(r) for r in records] + ["{broken", text_of(records[0])]
    data = "\n".join(lines).encode()
    upload = uploaded_by_a_worker(client_of(user), "club.jsonl", data)
    assert (upload.status, upload.total, upload.done) == ("done", 9, 9)
    assert (upload.failed, upload.duplicates) == (1, 1)
    assert Game.objects.count() == GameRecord.objects.count() == 7
    assert Game.objects.filter(pk__in=upload.items.values("game_id")).count() == 7


def test_a_worker_stores_an_upload_of_every_family(client_of: Any, user: Any, record: Any) -> None:
    from replay.poker.simulate import simulate_record
    from replay.rummy.simulate import simulate_game as rummy_game

    records = [
        record(0),
        rummy_game("joker_rummy", 3, 1),
        rummy_game("joker_rummy", 3, 2, corrupt_mode="joker.kept"),
        simulate_record("club_stud", 4, 3, 1),
        simulate_record("joker_poker", 2, 3, 1),
    ]
    data = "\n".join(text_of(r) for r in records).encode()
    upload = uploaded_by_a_worker(client_of(user), "night.jsonl", data)
    assert (upload.status, upload.done, upload.failed) == ("done", 5, 0)
    games = Game.objects.order_by("pk")
    assert [(g.family, g.verdict) for g in games] == [
        ("tricks", "verified"),
        ("rummy", "verified"),
        ("rummy", "illegal"),
        ("poker", "verified"),
        ("poker", "verified"),
    ]
