"""Reads of uploads and their items: an upload is its owner's, and staff's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import django_filters
from django.db.models import F, QuerySet

from core.access import is_staff
from core.errors import Rejected, request_finding
from core.filters import filtered
from games.models import Game
from games.selectors import game_list
from uploads.models import ItemOutcome, Upload, UploadItem

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
