"""Compress the long columns with lz4 on PostgreSQL (``core.compression``)."""

from django.db import migrations

from core.compression import lz4_columns


class Migration(migrations.Migration):
    dependencies = [("uploads", "0001_initial")]

    operations = [lz4_columns(("uploads_uploaditem", "text"), ("uploads_uploadpart", "data"))]
