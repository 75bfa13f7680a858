"""The sweep finishes uploads whose tasks were lost, and only those; the command is its twin."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command

from games.models import Game
from tests.service.conftest import text_of
from uploads.models import Upload
from uploads.services import Workers, upload_create, upload_split, uploads_resume
from uploads.tasks import WORKERS

pytestmark = pytest.mark.django_db

#: Workers that lose every task, as a broker restarted without its data does.
LOST = Workers(split=lambda *a: None, process=lambda *a: None)

#: Workers that split, then lose the batches.
SPLIT_ONLY = Workers(
    split=lambda upload_id: upload_split(upload_id=upload_id, workers=LOST),
    process=lambda *a: None,
)


def lost_upload(user: Any, *records: dict[str, Any]) -> Upload:
    data = "\n".join(text_of(r) for r in records).encode()
    return upload_create(
        uploaded_by=user, data=data, filename="a.jsonl", visibility="public", workers=LOST
    )


def test_an_upload_whose_split_was_lost_is_finished_by_the_sweep(
    user: Any, record: Any, committed: Any
) -> None:
    with committed():
        upload = lost_upload(user, record(0), record(1))
    assert Upload.objects.get(pk=upload.pk).status == "queued"
    with committed():
        assert uploads_resume(stalled_for=timedelta(0), workers=WORKERS) == [upload.pk]
    done = Upload.objects.get(pk=upload.pk)
    assert (done.status, done.total, done.done) == ("done", 2, 2)
    assert Game.objects.count() == 2


def test_an_upload_whose_batches_were_lost_is_finished_by_the_sweep(
    user: Any, record: Any, committed: Any
) -> None:
    with committed():
        upload = lost_upload(user, record(0))
        uploads_resume(stalled_for=timedelta(0), workers=SPLIT_ONLY)
    assert Upload.objects.get(pk=upload.pk).status == "running"
    with committed():
        assert uploads_resume(stalled_for=timedelta(0), workers=WORKERS) == [upload.pk]
    assert Upload.objects.get(pk=upload.pk).status == "done"


def test_the_sweep_leaves_uploads_that_moved_lately_and_finished_ones(
    user: Any, record: Any, committed: Any
) -> None:
    with committed():
        lost = lost_upload(user, record(0))
        finished = upload_create(
            uploaded_by=user,
            data=text_of(record(1)).encode(),
            filename="b.json",
            visibility="public",
            workers=WORKERS,
        )
    assert Upload.objects.get(pk=finished.pk).status == "done"
    assert uploads_resume(stalled_for=timedelta(minutes=1), workers=WORKERS) == []
    assert uploads_resume(stalled_for=timedelta(0), workers=LOST) == [lost.pk]
    # Queued again just now, it counts as moved: the next sweep waits its deadline again.
    assert uploads_resume(stalled_for=timedelta(minutes=1), workers=WORKERS) == []


def test_resume_uploads_queues_what_stalled_uploads_lack(
    user: Any, record: Any, committed: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    with committed():
        upload = lost_upload(user, record(0))
    call_command("resume_uploads", "--older-than", "5")
    assert capsys.readouterr().out == ""
    with committed():
        call_command("resume_uploads", "--older-than", "0")
    assert capsys.readouterr().out == f"upload {upload.pk}: queued\n"
    assert Upload.objects.get(pk=upload.pk).status == "done"
