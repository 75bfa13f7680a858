"""Compress the long columns with lz4 on PostgreSQL (``core.compression``)."""

from django.db import migrations

from core.compression import lz4_columns


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [lz4_columns(("games_gamerecord", "text"))]
