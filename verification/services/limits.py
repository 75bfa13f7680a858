"""The most one record or one file may cost, from settings (docs/format.md, "Limits").

The engine counts (``record_excess``, ``split_file``'s ``Bounds``); this module reads the
limits from settings and words what is past them as the API's ``request.too_large`` finding,
located where the excess is. Every way in applies them before replaying anything: the
verify and store endpoints refuse the request (413), an upload refuses a file whose split
goes past them and rejects each record that does.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import status

from core.errors import Rejected, request_finding
from replay import Bounds, Excess, record_excess

CODE = "request.too_large"


def excess_finding(excess: Excess) -> dict[str, Any]:
    return request_finding(
        CODE, excess.message, path=excess.path, expected=excess.limit, actual=excess.actual
    )


def record_limits_finding(*, size: int, value: Any) -> dict[str, Any] | None:
    """The finding of a record of ``size`` bytes (its text) and JSON ``value`` past a limit:
    its size, its deals or its plays; None within them."""
    limit = settings.RASPIS_MAX_RECORD_BYTES
    if size > limit:
        return excess_finding(Excess("bytes", "", limit, size))
    excess = record_excess(
        value, deals=settings.RASPIS_MAX_RECORD_DEALS, plays=settings.RASPIS_MAX_RECORD_PLAYS
    )
    return None if excess is None else excess_finding(excess)


def record_limits_check(*, size: int, value: Any) -> None:
    """Refuse (413) a record past a limit (``record_limits_finding``); ``value`` None checks
    the size alone, before the text is read as JSON."""
    finding = record_limits_finding(size=size, value=value)
    if finding is not None:
        raise Rejected([finding], status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)


def file_bounds() -> Bounds:
    """What a file's split may take: ``RASPIS_MAX_UPLOAD_RECORDS`` records, and
    ``RASPIS_MAX_UNPACKED_BYTES`` unpacked from a zip."""
    return Bounds(
        records=settings.RASPIS_MAX_UPLOAD_RECORDS, unpacked=settings.RASPIS_MAX_UNPACKED_BYTES
    )
