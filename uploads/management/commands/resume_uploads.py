"""``manage.py resume_uploads [--older-than MINUTES]``: queue again what an upload still lacks.

Tasks are acknowledged late, so a worker that dies hands its batch to the next one; this is
for the rarer loss of a queued task itself (a broker restarted without persistence, or a
database crash right after an asynchronous commit). Splitting and batches skip what is done,
so running it on a healthy upload only costs a few queries.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from uploads import tasks
from uploads.models import Upload, UploadStatus


class Command(BaseCommand):
    help = "Queue the split and pending batches of uploads that are not done."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--older-than", type=int, default=10, metavar="MINUTES")

    def handle(self, *args: Any, **options: Any) -> None:
        before = timezone.now() - timedelta(minutes=options["older_than"])
        uploads = Upload.objects.filter(
            status__in=[UploadStatus.QUEUED, UploadStatus.RUNNING], created_at__lt=before
        ).values_list("pk", flat=True)
        for upload_id in uploads:
            tasks.upload_split.delay(upload_id)
            self.stdout.write(f"upload {upload_id}: queued")
