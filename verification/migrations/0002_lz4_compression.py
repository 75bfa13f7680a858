"""Compress the long columns with lz4 on PostgreSQL (``core.compression``)."""

from django.db import migrations

from core.compression import lz4_columns


class Migration(migrations.Migration):
    dependencies = [("replay", "0001_initial")]

    operations = [lz4_columns(("replay_report", "data"))]
