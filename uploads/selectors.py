"""Reads of uploads and their items: an upload is its owner's, and staff's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import django_filters
from django.db.models import Count, F, QuerySet

from core.access import is_staff
from core.errors import Rejected, request_finding
from core.filters import filtered
from games.models import VERDICTS, Game
from games.selectors import game_list
from uploads.models import FAILED_OUTCOMES, ItemOutcome, Upload, UploadItem

if TYPE_CHECKING:
    from core.access import User


def upload_list(*, user: User) -> QuerySet[Upload]:
    uploads = Upload.objects.all()
    if is_staff(user):
        return uploads
    return uploads.filter(uploaded_by_id=user.pk) if user.is_authenticated else uploads.none()


def upload_get(*, user: User, upload_id: int) -> Upload | None:
    return upload_list(user=user).filter(pk=upload_id).first()


class ChoiceInFilter(django_filters.BaseInFilter, django_filters.ChoiceFilter):
    """Several choices, comma-separated (``?outcome=rejected,failed``), each one checked."""


class UploadItemFilter(django_filters.FilterSet):
    """The filters of ``GET /api/uploads/{id}/``: a client fetches only the records that failed."""

    outcome = ChoiceInFilter(
        choices=ItemOutcome.choices, help_text="outcomes, comma-separated: rejected,failed"
    )

    class Meta:
        model = UploadItem
        fields = ("outcome",)


def upload_items(*, upload: Upload, filters: Any = None) -> QuerySet[UploadItem]:
    """The upload's items in index order, filtered by query parameters (``UploadItemFilter``)."""
    items = upload.items.defer("text").annotate(verdict=F("game__verdict")).order_by("index")
    return items if filters is None else filtered(UploadItemFilter, filters, items)


def upload_game_list(*, user: User, filters: Any) -> QuerySet[Game]:
    """``game_list`` with one filter more, ``upload``: the games stored from that upload (a
    record stored, replaced, or a duplicate of a stored game). Games know nothing of
    uploads, so the filter is applied here; the upload must be one the user may see."""
    params = {key: filters[key] for key in filters if key != "upload"}
    findings: list[dict[str, Any]] = []
    upload = None
    raw = str(filters.get("upload") or "").strip()  # empty: as if not given, like the others
    if raw:
        known = raw.isdigit() and len(raw) < 19
        upload = upload_get(user=user, upload_id=int(raw)) if known else None
        if upload is None:
            findings.append(
                request_finding(
                    "request.invalid", f"upload: no upload {raw!r} of yours", path="/upload"
                )
            )
    try:
        games = game_list(user=user, filters=params)
    except Rejected as rejected:
        findings = [*rejected.findings, *findings]
    if findings:
        raise Rejected(findings)
    if upload is None:
        return games
    stored = UploadItem.objects.filter(upload=upload, game__isnull=False).values("game_id")
    return games.filter(pk__in=stored)


@dataclass(frozen=True, slots=True)
class UploadSummary:
    """What became of an upload's records, for its page."""

    outcomes: list[tuple[str, int]]  #: per outcome with items, in ``ItemOutcome`` order
    verdicts: list[tuple[str, int]]  #: the games it stored per verdict, worst first
    rejected: list[UploadItem]  #: the first rejected or failed items, with their findings
    rejected_count: int


def upload_summary(*, upload: Upload, rejected: int = 50) -> UploadSummary:
    """The counts per outcome and per verdict, and the first ``rejected`` items that were
    not stored: three queries (four with any such item). The verdicts count distinct games,
    as ``upload_game_list`` selects them (a record stored twice is one game)."""
    by_outcome = dict(
        upload.items.order_by()
        .values("outcome")
        .annotate(n=Count("pk"))
        .values_list("outcome", "n")
    )
    stored = UploadItem.objects.filter(upload=upload, game__isnull=False).values("game_id")
    by_verdict = dict(
        Game.objects.filter(pk__in=stored)
        .order_by()
        .values("verdict")
        .annotate(n=Count("pk"))
        .values_list("verdict", "n")
    )
    failed = sum(by_outcome.get(o, 0) for o in FAILED_OUTCOMES)
    failing = upload_items(upload=upload).filter(outcome__in=FAILED_OUTCOMES)
    items: list[UploadItem] = list(failing[:rejected]) if failed else []
    return UploadSummary(
        outcomes=[(o, by_outcome[o]) for o in ItemOutcome.values if by_outcome.get(o)],
        verdicts=[(v, by_verdict[v]) for v, _ in VERDICTS if by_verdict.get(v)],
        rejected=items,
        rejected_count=failed,
    )
