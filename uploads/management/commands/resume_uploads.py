"""``manage.py resume_uploads [--older-than MINUTES]``: queue again what uploads still lack.

The manual twin of the sweep celery beat runs (``uploads.tasks.uploads_resume``), for a
deployment without beat or to act at once: every unfinished upload that has not moved for
``MINUTES`` gets its split queued, which writes the items missing and re-queues the batches
not done. Running it on a healthy upload only costs a few queries.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from uploads import services, tasks


class Command(BaseCommand):
    help = "Queue the split and pending batches of uploads that are not done."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--older-than", type=int, default=10, metavar="MINUTES")

    def handle(self, *args: Any, **options: Any) -> None:
        stalled_for = timedelta(minutes=options["older_than"])
        for upload_id in services.uploads_resume(stalled_for=stalled_for, workers=tasks.WORKERS):
            self.stdout.write(f"upload {upload_id}: queued")
