"""Compress the long text columns with lz4 instead of pglz on PostgreSQL.

Ingest writes every record two or three times (the upload, its items, the game's record) and
pglz compression of those megabytes was most of the database's time; lz4 is several times
faster at a similar ratio. Other databases, and PostgreSQL built without lz4, keep theirs.
"""

from django.db import DatabaseError, migrations, transaction

COLUMNS = [("replay_report", "data")]


def lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    quote = connection.ops.quote_name
    for table, column in COLUMNS:
        try:
            with transaction.atomic(using=connection.alias):
                schema_editor.execute(
                    f"ALTER TABLE {quote(table)} ALTER COLUMN {quote(column)} SET COMPRESSION lz4"
                )
        except DatabaseError:
            return


class Migration(migrations.Migration):
    dependencies = [("replay", "0001_initial")]

    operations = [migrations.RunPython(lz4, migrations.RunPython.noop)]
