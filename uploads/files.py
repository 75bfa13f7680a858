"""An upload's file, kept in the database as pieces of ``PART_SIZE`` bytes (``UploadPart``).

A batch reads the pieces that hold its lines, a megabyte or two, not the file. On PostgreSQL
the pieces go in by a binary ``COPY`` (``core.bulk.Writes``); a 40 MB file stored as one value
took four times as long. Pieces are found by their offset and length, so a later
``PART_SIZE`` still reads the files stored before it.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import connection
from django.db.models import F, QuerySet
from django.db.models.functions import Length

from core.bulk import Writes
from uploads.models import UploadPart

PART_SIZE = 1 << 20


def upload_file_write(upload_id: int, data: bytes, writes: Writes, start: int = 0) -> None:
    """Queue ``data`` as the bytes from ``start`` of the file of upload ``upload_id`` on
    ``writes`` (a binary ``COPY`` on PostgreSQL): the pieces are stored once ``writes``
    finishes, in the caller's transaction."""
    rows = [
        (upload_id, start + offset, data[offset : offset + PART_SIZE])
        for offset in range(0, len(data), PART_SIZE)
    ]
    writes.insert(UploadPart, ("upload_id", "offset", "data"), rows)


def upload_file_read(upload_id: int, start: int = 0, end: int | None = None) -> bytes:
    """Bytes ``start:end`` of the file of upload ``upload_id`` (to its end when ``end`` is None)."""
    parts = (
        UploadPart.objects.filter(upload_id=upload_id)
        .annotate(stop=F("offset") + Length("data"))
        .filter(stop__gt=start)
    )
    if end is not None:
        parts = parts.filter(offset__lt=end)
    pieces = _rows(parts.order_by("offset").values_list("offset", "data"))
    if not pieces:
        return b""
    first = pieces[0][0]
    data = b"".join(bytes(piece) for _, piece in pieces)
    return data[start - first : None if end is None else end - first]


def _rows(query: QuerySet[Any, tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The rows of ``query``; from PostgreSQL in its binary format.

    Django reads results as text, in which a bytea comes hex-encoded: twice its size, encoded
    by the server and decoded again here. A batch reading its megabytes took four times as
    long that way.
    """
    if connection.vendor != "postgresql":
        return list(query)
    sql, params = query.query.sql_with_params()
    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params, binary=True)
        return cursor.fetchall()
