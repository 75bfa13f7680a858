"""Migration games 0005 cuts the files of uploads stored before it into pieces, losing nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from replay.services import upload_file_read

BEFORE = [("games", "0004_gametoreview")]
AFTER = [("games", "0005_upload_parts_and_item_places")]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


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
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert upload_file_read(old.pk) == data
    assert upload_file_read(old.pk, 1_048_570, 1_048_600) == data[1_048_570:1_048_600]
    assert upload_file_read(empty.pk) == b""
