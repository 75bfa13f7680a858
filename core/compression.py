"""Long columns compressed with lz4 instead of pglz on PostgreSQL, for the apps' migrations.

Ingest writes every record two or three times (the upload's file and items, the game's record,
its report), and pglz compression of those megabytes was most of the database's time; lz4 is
several times faster at a similar ratio. Other databases, and PostgreSQL built without lz4,
keep theirs.
"""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError, migrations, transaction


def lz4_columns(*columns: tuple[str, str]) -> migrations.RunPython:
    """A migration operation that compresses each ``(table, column)`` with lz4."""

    def compress(apps: Any, schema_editor: Any) -> None:
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        quote = connection.ops.quote_name
        for table, column in columns:
            try:
                with transaction.atomic(using=connection.alias):
                    schema_editor.execute(
                        f"ALTER TABLE {quote(table)} ALTER COLUMN {quote(column)} "
                        "SET COMPRESSION lz4"
                    )
            except DatabaseError:
                return

    return migrations.RunPython(compress, migrations.RunPython.noop)
