"""Uploads are stored as pieces of a mebibyte; lines of JSON Lines are read from them by place.

Storing a 40 MB file as one value took PostgreSQL most of a second, and every record was
then copied into its item. Pieces go in four times faster, and an item that is a line now
holds only its place in the file. The pieces are compressed with lz4 on PostgreSQL, which
writes them faster than uncompressed (less to write) in 40% of the space.

Uploads stored before keep their file: it is cut into pieces here, before the column goes.
Going back puts each file together again and gives the items made since their text.
"""

import django.db.models.deletion
from django.db import DatabaseError, migrations, models, transaction

PART = 1 << 20


def files_to_parts(apps, schema_editor):
    Upload = apps.get_model("games", "Upload")
    UploadPart = apps.get_model("games", "UploadPart")
    for upload_id in Upload.objects.values_list("pk", flat=True).iterator():
        data = bytes(Upload.objects.values_list("data", flat=True).get(pk=upload_id))
        UploadPart.objects.bulk_create(
            (
                UploadPart(upload_id=upload_id, offset=offset, data=data[offset : offset + PART])
                for offset in range(0, len(data), PART)
            ),
            batch_size=1,  # one MiB a statement: the values are bound as text
        )


def parts_to_files(apps, schema_editor):
    Upload = apps.get_model("games", "Upload")
    UploadPart = apps.get_model("games", "UploadPart")
    UploadItem = apps.get_model("games", "UploadItem")
    for upload in Upload.objects.all().iterator():
        parts = UploadPart.objects.filter(upload_id=upload.pk).order_by("offset")
        upload.data = b"".join(bytes(p) for p in parts.values_list("data", flat=True))
        upload.save(update_fields=["data"])
        lines = UploadItem.objects.filter(upload_id=upload.pk, start__isnull=False)
        for item in lines.iterator():
            raw = upload.data[item.start : item.end]
            item.text = raw.decode("utf-8", errors="replace").replace("\x00", "\ufffd")
            item.save(update_fields=["text"])


def parts_lz4(apps, schema_editor):
    """As 0002 does for the other long columns; PostgreSQL built without lz4 keeps pglz."""
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    quote = connection.ops.quote_name
    try:
        with transaction.atomic(using=connection.alias):
            schema_editor.execute(
                f"ALTER TABLE {quote('games_uploadpart')} ALTER COLUMN {quote('data')} "
                "SET COMPRESSION lz4"
            )
    except DatabaseError:
        return


class Migration(migrations.Migration):
    dependencies = [("games", "0004_gametoreview")]

    operations = [
        migrations.CreateModel(
            name="UploadPart",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("offset", models.PositiveBigIntegerField()),
                ("data", models.BinaryField()),
                (
                    "upload",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="parts",
                        to="games.upload",
                    ),
                ),
            ],
            options={
                "ordering": ["upload", "offset"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("upload", "offset"), name="uploadpart_unique_offset"
                    )
                ],
            },
        ),
        migrations.RunPython(parts_lz4, migrations.RunPython.noop),
        migrations.AddField(
            model_name="uploaditem",
            name="end",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="uploaditem",
            name="start",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="uploaditem",
            name="text",
            field=models.TextField(blank=True),
        ),
        migrations.RunPython(files_to_parts, parts_to_files),
        # Going back, the column comes back empty before parts_to_files fills it.
        migrations.AlterField(
            model_name="upload", name="data", field=models.BinaryField(blank=True, default=b"")
        ),
        migrations.RemoveField(model_name="upload", name="data"),
    ]
