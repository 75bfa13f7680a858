"""Reads of uploads and their items: an upload is its owner's, and staff's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import django_filters
from django.db.models import QuerySet

from core.access import is_staff
from core.filters import filtered
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
    items = upload.items.defer("text").order_by("index")
    return items if filters is None else filtered(UploadItemFilter, filters, items)
