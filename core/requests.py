"""What every API view may need of a request: its raw body within the size limit and the
signed-in account."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import RequestDataTooBig
from rest_framework.request import Request

from core.errors import Rejected
from core.exceptions import PayloadTooLarge

#: Room for multipart boundaries and form fields around an uploaded file of the full size.
MULTIPART_OVERHEAD = 64 * 1024


def content_length(request: Request) -> int | None:
    try:
        return int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None


def size_check(request: Request, *, overhead: int = 0) -> None:
    """Refuse (413) a request whose declared length is past the limit, before reading it."""
    limit = settings.RASPIS_MAX_UPLOAD_BYTES
    length = content_length(request)
    if length is not None and length > limit + overhead:
        raise PayloadTooLarge(limit, length)


def body_read(request: Request) -> bytes:
    """The raw request body, at most ``RASPIS_MAX_UPLOAD_BYTES`` (else 413)."""
    if request.META.get("CONTENT_LENGTH") and content_length(request) is None:
        raise Rejected.one("the Content-Length header is not a number")
    size_check(request)
    limit = settings.RASPIS_MAX_UPLOAD_BYTES
    try:
        data = request.body  # DRF hands attribute reads to Django's request
    except RequestDataTooBig:
        raise PayloadTooLarge(limit) from None
    if len(data) > limit:
        raise PayloadTooLarge(limit, len(data))
    return data


def account(request: Request) -> User:
    """The signed-in user of a view whose permissions already require one."""
    user = request.user
    assert isinstance(user, User), "the view's permissions let an anonymous user through"
    return user
