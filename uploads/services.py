"""The upload pipeline: store the file, split it into items, verify the items in batches.

The file's bytes are committed before any work starts, so a worker that dies loses nothing:
its batch's transaction rolls back, the broker hands the task out again (``acks_late``), or
the sweep re-queues what has not moved for a while (``uploads_resume``), and the re-run skips
items already done. A database or broker that is away makes a task retry (``core.outages``),
never marks an item failed. A batch is stored in one transaction — one bulk write
for a few hundred games is what makes ingest fast — and when that fails (two uploads racing for
the same record, or a bug on one strange record) the batch falls back to one transaction per
item, so that one bad item cannot hold back the others.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from core.bulk import Writes, bulk_insert, bulk_set, clean_text, gc_paused, json_safe
from core.errors import finding_dict, request_finding
from core.outages import TRANSIENT, send_on_commit
from importers import convert
from replay import Document, Excess, Line, TooLarge, split_file
from uploads.files import PART_SIZE, upload_file_read, upload_file_write
from uploads.models import FAILED_OUTCOMES, ItemOutcome, Upload, UploadItem, UploadStatus
from verification.models import Stored
from verification.services.limits import file_bounds
from verification.services.store import Entry, Outcome, records_store

if TYPE_CHECKING:
    from django.contrib.auth.models import User

logger = logging.getLogger(__name__)

ITEM_FIELDS = (
    "upload_id",
    "index",
    "batch",
    "label",
    "text",
    "start",
    "end",
    "outcome",
    "findings",
)
#: What a batch lets through to its task, which retries: time up, or a service away.
NOT_THE_ITEMS_FAULT: tuple[type[BaseException], ...] = (SoftTimeLimitExceeded, *TRANSIENT)


@dataclass(frozen=True, slots=True)
class Workers:
    """How the services hand work to a worker: the tasks' ``delay``, given by the interface
    that calls them (``tasks.WORKERS``). The tasks call the services, so the services take
    the tasks as values rather than import them."""

    split: Callable[[int], object]  #: split upload ``id`` into items, queueing its batches
    process: Callable[[int, int], object]  #: verify batch ``batch`` of upload ``id``


class UploadReceiver:
    """An upload's file, stored as it arrives (``upload_receiving``).

    Each ``PART_SIZE`` bytes are queued for the database as soon as they are in (``Writes``),
    and hashed as they come: PostgreSQL takes in a 40 MB file while the web process is
    still reading the request, not after it. Nothing here reads the records: a worker
    splits the file (``upload_split``), so that no file, however it is made, costs the web
    process more than its bytes.
    """

    def __init__(self, upload: Upload, writes: Writes) -> None:
        self.upload = upload
        self.size = 0
        self._writes = writes
        self._hash = hashlib.sha256()
        self._waiting: list[bytes] = []  # the file's end, not yet queued for the database

    def take(self, chunk: bytes) -> None:
        """The file's next bytes."""
        self._hash.update(chunk)
        self._waiting.append(chunk)
        self.size += len(chunk)
        if sum(map(len, self._waiting)) >= PART_SIZE:
            self._store()

    def _store(self) -> None:
        part = b"".join(self._waiting)
        self._waiting = []
        upload_file_write(self.upload.pk, part, self._writes, self.size - len(part))

    def finish(self, *, filename: str, visibility: str, source_format: str = "") -> None:
        """The whole file is in: name it and let the database take in its last parts;
        ``source_format`` names the importer that converts it when a worker splits it."""
        if self._waiting:
            self._store()
        upload = self.upload
        upload.filename = clean_text(filename)[:255]
        upload.visibility = visibility
        upload.source_format = source_format
        upload.size = self.size
        upload.sha256 = self._hash.hexdigest()
        self._writes.finish()
        upload.save(update_fields=["filename", "visibility", "source_format", "size", "sha256"])


@contextlib.contextmanager
def upload_receiving(*, uploaded_by: User) -> Iterator[UploadReceiver]:
    """An upload to receive (``UploadReceiver.take``, then ``finish``), in the transaction
    that stores its file: committed when the block ends, rolled back if it raises, so that a
    request refused halfway stores nothing. ``upload_queue`` then hands it to a worker.
    """
    with transaction.atomic(), Writes() as writes:
        upload = Upload.objects.create(uploaded_by=uploaded_by, filename="", size=0, sha256="")
        yield UploadReceiver(upload, writes)


def upload_create(
    *,
    uploaded_by: User,
    data: bytes,
    filename: str,
    visibility: str,
    workers: Workers,
    source_format: str = "",
) -> Upload:
    """Store an uploaded file and queue its split."""
    with upload_receiving(uploaded_by=uploaded_by) as receiver:
        receiver.take(data)
        receiver.finish(filename=filename, visibility=visibility, source_format=source_format)
    return upload_queue(receiver, workers=workers)


def upload_queue(receiver: UploadReceiver, *, workers: Workers) -> Upload:
    """Queue the split of a received upload once its file is committed.

    The upload is accepted from then on: should the broker be down, the upload stays
    ``queued`` and the sweep (``uploads_resume``) sends its split when the broker is back.
    """
    upload = receiver.upload
    send_on_commit(workers.split, upload.pk)
    upload.refresh_from_db()  # what a worker that ran already (eager Celery) made of it
    return upload


def upload_documents(
    data: bytes, filename: str, source_format: str = ""
) -> Sequence[Document | Line]:
    """The items of a file: its records, or the lines that hold them (``split_file``).

    A file of another format (``source_format``) is converted here, where its records are
    split and before any is verified: each game of it is an item, and a file that gives
    none is one rejected item with its ``import.*`` finding. Within the limits of
    ``file_bounds`` (else ``TooLarge``).
    """
    if source_format:
        bounds = file_bounds()
        games = convert(source_format, data, filename, bounds)
        limit = bounds.records
        if limit is not None and len(games) > limit:
            raise TooLarge(Excess("records", "", limit, len(games)))
        return [game.document() for game in games]
    with gc_paused():
        return split_file(data, filename, file_bounds())


def upload_split(*, upload_id: int, workers: Workers) -> list[int]:
    """Split the stored file and write the items still missing, a batch per transaction,
    queueing each batch once written.

    Running it again (the sweep, ``manage.py resume_uploads``, a retried task) writes only
    the items still missing and re-queues the batches not done; processing a batch twice is
    harmless. Returns the batches it queued.
    """
    upload = Upload.objects.filter(pk=upload_id).first()
    if upload is None:
        return []
    queued: list[int] = []

    def enqueue(batch: int) -> None:
        queued.append(batch)
        send_on_commit(workers.process, upload_id, batch)

    written = UploadItem.objects.filter(upload_id=upload_id).count()
    if upload.status == UploadStatus.QUEUED or written < upload.total:
        try:
            documents = upload_documents(
                upload_file_read(upload_id), upload.filename, upload.source_format
            )
        except TooLarge as refused:
            upload_fail(upload_id=upload_id, error=refused.excess.message)
            return []
        _items_create(upload, documents, written, enqueue)
    pending = UploadItem.objects.filter(upload_id=upload_id, outcome=ItemOutcome.PENDING)
    with transaction.atomic():
        for batch in sorted(set(pending.values_list("batch", flat=True)) - set(queued)):
            enqueue(batch)
    return sorted(queued)


def _items_create(
    upload: Upload,
    documents: Sequence[Document | Line],
    written: int,
    enqueue: Callable[[int], None],
) -> None:
    """Write the items after the ``written`` ones, a batch per transaction."""
    started = time.perf_counter()
    size = settings.RASPIS_UPLOAD_BATCH_SIZE
    Upload.objects.filter(pk=upload.pk).update(
        total=len(documents),
        status=UploadStatus.RUNNING,
        started_at=Coalesce("started_at", Value(timezone.now())),
        progressed_at=timezone.now(),
    )
    start = written
    while start < len(documents):
        stop = (start // size + 1) * size
        with transaction.atomic():
            # The items can be split again from the file if a crash loses this commit.
            _commit_without_waiting()
            rows, rejected = _item_rows(upload, documents, start, stop, size)
            bulk_insert(UploadItem, ITEM_FIELDS, rows)
            _counts_add(upload.pk, done=rejected, failed=rejected)
            if rejected < len(rows):
                enqueue(start // size)
        start = stop
    _upload_finish_if_done(upload.pk)
    logger.info(
        "upload %s: %d items stored in %.2f s",
        upload.pk,
        len(documents),
        time.perf_counter() - started,
    )


def _item_rows(
    upload: Upload, documents: Sequence[Document | Line], start: int, stop: int, size: int
) -> tuple[list[tuple[Any, ...]], int]:
    rows: list[tuple[Any, ...]] = []
    rejected = 0
    for index in range(start, min(stop, len(documents))):
        document = documents[index]
        label = clean_text(document.label)[:300]
        place: tuple[Any, ...] = (upload.pk, index, index // size, label)
        if isinstance(document, Line):
            rows.append((*place, "", document.start, document.end, ItemOutcome.PENDING, []))
            continue
        outcome, findings = ItemOutcome.PENDING, []
        if document.error is not None:
            outcome, findings = ItemOutcome.REJECTED, json_safe([finding_dict(document.error)])
            rejected += 1
        rows.append((*place, clean_text(document.text), None, None, outcome, findings))
    return rows, rejected


def upload_fail(*, upload_id: int, error: str) -> None:
    """Record that an upload could not be split: past a limit of ``file_bounds``, or a bug
    (a bad record is not this: it is an item)."""
    Upload.objects.filter(pk=upload_id).exclude(status=UploadStatus.DONE).update(
        status=UploadStatus.FAILED, error=error[:2000], finished_at=timezone.now()
    )


def upload_process(*, upload_id: int, batch: int) -> int:
    """Verify and store the pending items of one batch; returns how many it processed."""
    upload = Upload.objects.select_related("uploaded_by").filter(pk=upload_id).first()
    if upload is None:
        return 0
    try:
        with transaction.atomic():
            _commit_without_waiting()
            items = list(
                UploadItem.objects.select_for_update()
                .filter(upload=upload, batch=batch, outcome=ItemOutcome.PENDING)
                .order_by("index")
            )
            if items:
                started = time.perf_counter()
                _items_store(upload, items)
                logger.info(
                    "upload %s batch %s: %d items in %.2f s",
                    upload_id,
                    batch,
                    len(items),
                    time.perf_counter() - started,
                )
            return len(items)
    except NOT_THE_ITEMS_FAULT:
        raise  # the task is retried: the outage is no fault of the batch
    except Exception:
        logger.warning("upload %s batch %s: retrying item by item", upload_id, batch, exc_info=True)
    pending = list(
        UploadItem.objects.filter(
            upload=upload, batch=batch, outcome=ItemOutcome.PENDING
        ).values_list("pk", flat=True)
    )
    for item_id in pending:
        _item_process_alone(upload, item_id)
    return len(pending)


def _commit_without_waiting() -> None:
    """Let this transaction's commit return before its WAL reaches the disk (PostgreSQL).

    The commit otherwise waits for a flush of megabytes of records. Only for work that can be
    redone: the database stays consistent whatever happens, and should a crash of the database
    server itself lose such a commit (a fraction of a second after it), the items are missing
    or pending again and the sweep (``uploads_resume``) redoes them from the stored file.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def _item_process_alone(upload: Upload, item_id: int) -> None:
    for attempt in (1, 2):
        try:
            with transaction.atomic():
                item = UploadItem.objects.select_for_update().get(pk=item_id)
                if item.outcome == ItemOutcome.PENDING:
                    _items_store(upload, [item])
            return
        except NOT_THE_ITEMS_FAULT:
            raise
        except IntegrityError:
            # Another worker stored the same record or external id meanwhile; the second
            # attempt sees its rows and makes this one a duplicate or a replacement.
            if attempt == 2:
                logger.exception("upload %s item %s: integrity error twice", upload.pk, item_id)
        except Exception:
            logger.exception("upload %s item %s failed", upload.pk, item_id)
            break
    finding = request_finding(
        "server.error", "the service failed on this record; staff can see why in the logs"
    )
    with transaction.atomic():
        item = UploadItem.objects.select_for_update().get(pk=item_id)
        if item.outcome == ItemOutcome.PENDING:
            _items_finish(upload, [item], [Outcome(Stored.FAILED, findings=[finding])])


def _items_store(upload: Upload, items: Sequence[UploadItem]) -> None:
    with gc_paused():
        entries = list(_entries(upload.pk, items))
        outcomes = records_store(
            entries=entries,
            uploaded_by=upload.uploaded_by,
            visibility=upload.visibility,
        )
        _items_finish(upload, items, outcomes)
        # Freed before the collector resumes, which would otherwise walk the batch's
        # records and reports once more before they go: a twentieth of the batch's time.
        del entries, outcomes


def _entries(upload_id: int, items: Sequence[UploadItem]) -> Iterator[Entry]:
    """Each item's record, to be read when its turn comes (``Entry``): a line of the file,
    or the text the item keeps.

    A batch's lines are neighbours in the file, so one query reads the part that holds them.
    """
    spans = [(i.start, i.end) for i in items if i.start is not None and i.end is not None]
    piece, offset = b"", 0
    if spans:
        offset = min(start for start, _ in spans)
        piece = upload_file_read(upload_id, offset, max(end for _, end in spans))
    for item in items:
        if item.start is None or item.end is None:
            yield Entry(item.text, label=item.label)
            continue
        try:
            yield Entry(piece[item.start - offset : item.end - offset].decode(), label=item.label)
        except UnicodeDecodeError:  # the engine words the finding
            document = Line(item.label, item.start, item.end).read(piece, offset)
            yield Entry(document.text, document.value, document.error)


def _items_finish(upload: Upload, items: Sequence[UploadItem], outcomes: Sequence[Outcome]) -> None:
    """Mark items done and add them to the upload's counts, in the items' transaction."""
    failed = duplicates = 0
    rows = []
    for item, outcome in zip(items, outcomes, strict=True):
        rows.append((item.pk, outcome.kind, outcome.game_id, outcome.findings))
        failed += outcome.kind in FAILED_OUTCOMES
        duplicates += outcome.kind == ItemOutcome.DUPLICATE
    bulk_set(UploadItem, ("outcome", "game_id", "findings"), rows)
    _counts_add(upload.pk, done=len(items), failed=failed, duplicates=duplicates)
    _upload_finish_if_done(upload.pk)


def _counts_add(upload_id: int, *, done: int, failed: int, duplicates: int = 0) -> None:
    Upload.objects.filter(pk=upload_id).update(
        done=F("done") + done,
        failed=F("failed") + failed,
        duplicates=F("duplicates") + duplicates,
        progressed_at=timezone.now(),
    )


def _upload_finish_if_done(upload_id: int) -> None:
    """Mark the upload done once every item is; the split has set ``total`` by then."""
    Upload.objects.filter(pk=upload_id, status=UploadStatus.RUNNING, done__gte=F("total")).update(
        status=UploadStatus.DONE, finished_at=timezone.now()
    )


def uploads_resume(*, stalled_for: timedelta, workers: Workers) -> list[int]:
    """Queue again the split of every unfinished upload that has not moved for
    ``stalled_for``; returns their ids.

    A task can be lost between the commit that made it and the broker (a broker down or
    restarted without its data, a web process killed in between), and a worker killed
    mid-batch holds its task until the broker's visibility timeout. The split re-queues
    what such an upload still lacks; the upload counts as moved again, so that a long queue
    gets each stalled upload re-queued once per ``stalled_for``, not at every sweep.
    """
    now = timezone.now()
    stalled = Upload.objects.filter(
        status__in=[UploadStatus.QUEUED, UploadStatus.RUNNING], progressed_at__lt=now - stalled_for
    )
    upload_ids = list(stalled.order_by("pk").values_list("pk", flat=True))
    Upload.objects.filter(pk__in=upload_ids).update(progressed_at=now)
    for upload_id in upload_ids:
        logger.info("upload %s: stalled, queued again", upload_id)
        workers.split(upload_id)
    return upload_ids
