"""The API's throttle (``DEFAULT_THROTTLE_CLASSES``), apart from the views that use it: DRF
reads it from settings while it defines ``APIView``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle

if TYPE_CHECKING:
    from rest_framework.views import APIView


class WriteThrottle(ScopedRateThrottle):
    """The rate of a view's ``throttle_scope`` (``upload``, ``verify``, ``write``), counted
    only for writes: reading the same URL is not throttled. Every view has it
    (``DEFAULT_THROTTLE_CLASSES``); a view without a scope is not throttled. Counted per
    account, or per address without one, in the default cache: Redis in a deployment, so that
    every web process adds to the same count."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)
