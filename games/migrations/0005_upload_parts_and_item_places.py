"""Uploads are stored as pieces of a mebibyte; lines of JSON Lines are read from them by place.

Storing a 40 MB file as one value took PostgreSQL most of a second, and every record was
then copied into its item. Pieces go in four times faster, and an item that is a line now
holds only its place in the file. The pieces are kept uncompressed on PostgreSQL
(``STORAGE EXTERNAL``): they are written once and read in small slices.

Uploads stored before keep their file: it is cut into pieces here, before the column goes.
"""

import django.db.models.deletion
from django.db import migrations, models

PART = 1 << 20


def files_to_parts(apps, schema_editor):
    Upload = apps.get_model("games", "Upload")
    UploadPart = apps.get_model("games", "UploadPart")
    for upload_id in Upload.objects.values_list("pk", flat=True).iterator():
        data = bytes(Upload.objects.values_list("data", flat=True).get(pk=upload_id))
        UploadPart.objects.bulk_create(
            UploadPart(upload_id=upload_id, offset=offset, data=data[offset : offset + PART])
            for offset in range(0, len(data), PART)
        )


def parts_to_files(apps, schema_editor):
    Upload = apps.get_model("games", "Upload")
    UploadPart = apps.get_model("games", "UploadPart")
    for upload in Upload.objects.all().iterator():
        parts = UploadPart.objects.filter(upload_id=upload.pk).order_by("offset")
        upload.data = b"".join(bytes(p) for p in parts.values_list("data", flat=True))
        upload.save(update_fields=["data"])


def parts_uncompressed(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor == "postgresql":
        quote = connection.ops.quote_name
        table = quote("games_uploadpart")
        schema_editor.execute(
            f"ALTER TABLE {table} ALTER COLUMN {quote('data')} SET STORAGE EXTERNAL"
        )


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
        migrations.RunPython(parts_uncompressed, migrations.RunPython.noop),
        migrations.RunPython(files_to_parts, parts_to_files),
        migrations.RemoveField(model_name="upload", name="data"),
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
    ]
