"""The API's throttle (``DEFAULT_THROTTLE_CLASSES``), apart from the views that use it: DRF
reads it from settings while it defines ``APIView``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

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
