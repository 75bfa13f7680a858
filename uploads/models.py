"""Models for uploads: a file of records, kept in parts, and its items, each one record.

The file is stored before any work starts, so that a worker that dies loses nothing; the
items say what became of each record and which game holds it.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game, Visibility
from verification.models import Stored


class UploadStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class Upload(models.Model):
    """A file of records, stored before any work starts so that a dead worker loses nothing.

    The file itself is in ``UploadPart`` rows. The counts are refreshed after every batch,
    so a client polling the upload sees progress.
    """

    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="uploads"
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    filename = models.CharField(max_length=255, blank=True)
    #: The format the file is converted from before its records are split (a key of
    #: ``importers.FORMATS``); empty for a file of raspis/1 records.
    source_format = models.CharField(max_length=20, blank=True, default="")
    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    status = models.CharField(
        max_length=10, choices=UploadStatus.choices, default=UploadStatus.QUEUED
    )
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)  #: items processed, whatever the outcome
    failed = models.PositiveIntegerField(default=0)  #: items rejected (malformed) or failed
    duplicates = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: When a batch last moved, or the sweep last re-queued it: an unfinished upload that
    #: has not moved for a while is stalled (``services.uploads_resume``).
    progressed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering: ClassVar = ["-created_at", "-id"]
        indexes: ClassVar = [models.Index(fields=["status", "progressed_at"])]

    def __str__(self) -> str:
        return f"upload {self.pk} ({self.filename})"


class UploadPart(models.Model):
    """A piece of an upload's file (a mebibyte): the file is their ``data`` by ``offset``.

    PostgreSQL stores a 40 MB value four times slower than forty values of one MB, and reads
    a batch's few lines from a piece without touching the rest of the file.
    """

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="parts")
    offset = models.PositiveBigIntegerField()
    data = models.BinaryField()

    class Meta:
        ordering: ClassVar = ["upload", "offset"]
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["upload", "offset"], name="uploadpart_unique_offset")
        ]

    def __str__(self) -> str:
        return f"bytes from {self.offset} of upload {self.upload_id}"


class ItemOutcome(models.TextChoices):
    """An item waiting for its batch, then what storing its record made of it (``Stored``)."""

    PENDING = "pending"
    STORED = Stored.STORED.value
    REPLACED = Stored.REPLACED.value
    DUPLICATE = Stored.DUPLICATE.value
    REJECTED = Stored.REJECTED.value
    FAILED = Stored.FAILED.value


#: The outcomes of an item whose record was not stored: ``findings`` say why.
FAILED_OUTCOMES = (ItemOutcome.REJECTED, ItemOutcome.FAILED)


class UploadItem(models.Model):
    """One record of an upload, processed in a batch; done items are skipped on a re-run."""

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="items")
    index = models.PositiveIntegerField()
    batch = models.PositiveIntegerField()
    label = models.CharField(max_length=300)
    #: A line of a JSON Lines file is bytes ``start:end`` of the file, read when it is verified
    #: rather than copied here; other records (zip members, array items) keep their text.
    text = models.TextField(blank=True)
    start = models.PositiveBigIntegerField(null=True, blank=True)
    end = models.PositiveBigIntegerField(null=True, blank=True)
    outcome = models.CharField(
        max_length=10, choices=ItemOutcome.choices, default=ItemOutcome.PENDING
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    findings = models.JSONField(default=list, blank=True)

    class Meta:
        ordering: ClassVar = ["upload", "index"]
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["upload", "index"], name="uploaditem_unique_index")
        ]
        indexes: ClassVar = [models.Index(fields=["upload", "batch"])]

    def __str__(self) -> str:
        return f"{self.label} of upload {self.upload_id}"
