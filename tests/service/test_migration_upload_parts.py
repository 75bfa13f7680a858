"""Migration games 0005 cuts the files of uploads stored before it into pieces, and going
back puts them together again; no file or record is lost either way."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import UploadItem
from replay import tasks
from replay.services import upload_create, upload_file_read
from tests.service.conftest import text_of

BEFORE = [("games", "0004_gametoreview")]
AFTER = [("games", "0005_upload_parts_and_item_places")]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


def latest() -> None:
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_files_stored_before_become_pieces_and_read_back_whole() -> None:
    user = User.objects.create_user("old-uploader")
    data = bytes(range(256)) * 9000  # 2.2 MiB: three pieces, the last one short
    state = migrate(BEFORE).loader.project_state(BEFORE)
    Upload = state.apps.get_model("games", "Upload")
    old = Upload.objects.create(
        uploaded_by_id=user.pk, filename="old.jsonl", data=data, size=len(data), sha256="x"
    )
    empty = Upload.objects.create(
        uploaded_by_id=user.pk, filename="empty.jsonl", data=b"", size=0, sha256="y"
    )
    migrate(AFTER)
    latest()
    assert upload_file_read(old.pk) == data
    assert upload_file_read(old.pk, 1_048_570, 1_048_600) == data[1_048_570:1_048_600]
    assert upload_file_read(empty.pk) == b""


@pytest.mark.django_db(transaction=True)
def test_going_back_gives_uploads_their_file_and_lines_their_text(
    record: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.upload_process, "delay", lambda *a: queued.append(a))
    user = User.objects.create_user("uploader")
    lines = [text_of(record(0)), text_of(record(1))]
    data = ("\ufeff" + "\r\n".join(lines) + "\r\n").encode()
    upload = upload_create(uploaded_by=user, data=data, filename="g.jsonl", visibility="public")
    assert queued == [(upload.pk, 0)]  # left pending: the items keep only their places
    assert [i.text for i in UploadItem.objects.order_by("index")] == ["", ""]
    state = migrate(BEFORE).loader.project_state(BEFORE)
    try:
        Upload = state.apps.get_model("games", "Upload")
        Item = state.apps.get_model("games", "UploadItem")
        assert bytes(Upload.objects.get(pk=upload.pk).data) == data
        assert list(Item.objects.order_by("index").values_list("text", flat=True)) == lines
    finally:
        latest()
    assert upload_file_read(upload.pk) == data
