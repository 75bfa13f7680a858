"""The API's throttle (``DEFAULT_THROTTLE_CLASSES``), apart from the views that use it: DRF
reads it from settings while it defines ``APIView``."""

from __future__ import annotations

import logging
import math
from types import SimpleNamespace
from typing import TYPE_CHECKING

from django.http import HttpRequest
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle

from core.outages import BROKER_ERRORS

if TYPE_CHECKING:
    from rest_framework.views import APIView

logger = logging.getLogger(__name__)


class WriteThrottle(ScopedRateThrottle):
    """The rate of a view's ``throttle_scope`` (``upload``, ``verify``, ``write``), counted
    only for writes: reading the same URL is not throttled. Every view has it
    (``DEFAULT_THROTTLE_CLASSES``); a view without a scope is not throttled. Counted per
    account, or per address without one, in the default cache: Redis in a deployment, so that
    every web process adds to the same count.

    With the cache away (Redis restarting) a write is let through uncounted: each request is
    still bounded by the limits of its size, and an upload accepted then is finished by the
    workers once the broker is back, where refusing every write would turn a cache outage
    into an outage of the service. Failed sign-ins are not let through so (``core.logins``).
    """

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        try:
            return super().allow_request(request, view)
        except BROKER_ERRORS as error:
            logger.warning("throttle not counted, its cache is away: %s", error)
            return True


def page_wait(request: HttpRequest, scope: str, count: int = 1) -> int | None:
    """Seconds before the reader may write through a page (``count`` verifications or
    uploads of ``scope``), counted with the API's: the site's forms are no way around the
    API's rates. None when they may now."""
    throttle = WriteThrottle()
    view = SimpleNamespace(throttle_scope=scope)
    for _ in range(count):
        if not throttle.allow_request(request, view):  # type: ignore[arg-type]
            return max(1, math.ceil(throttle.wait() or 1))
    return None
