"""One shape for every API error: ``{"findings": [...]}`` with docs/format.md's finding fields.

A client that reads a verification report can read a refused request the same way. Record
problems keep the record codes (``record.json``, ``record.schema``, ...); problems with the
request itself use the ``request.*`` codes listed in docs/format.md, "API errors". ``path``
is a JSON Pointer into the request body (or, for query parameters, into the object of the
parameters) where it applies.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import Rejected, request_finding
from core.outages import TRANSIENT, unavailable

logger = logging.getLogger(__name__)


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "the request is larger than the service accepts"
    default_code = "request.too_large"

    def __init__(self, limit: int, size: int | None = None) -> None:
        super().__init__(f"the upload is larger than {limit} bytes")
        self.limit = limit
        self.size = size


CODES: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.ParseError, "request.json"),
    (exceptions.ValidationError, "request.invalid"),
    (exceptions.NotAuthenticated, "request.unauthenticated"),
    (exceptions.AuthenticationFailed, "request.unauthenticated"),
    (exceptions.PermissionDenied, "request.forbidden"),
    (exceptions.NotFound, "request.not_found"),
    (exceptions.MethodNotAllowed, "request.method"),
    (exceptions.NotAcceptable, "request.not_acceptable"),
    (exceptions.UnsupportedMediaType, "request.media_type"),
    (exceptions.Throttled, "request.throttled"),
    (PayloadTooLarge, "request.too_large"),
]


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, with every error body rewritten as findings."""
    exc = _as_drf(exc, context)
    if isinstance(exc, Rejected):
        return Response({"findings": exc.findings}, status=exc.status)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for cls, c in CODES if isinstance(exc, cls)), "request.error")
    if isinstance(exc, exceptions.ValidationError):
        findings = [
            request_finding(code, message, path=path) for path, message in _flatten(exc.detail)
        ]
    else:
        detail = getattr(exc, "detail", None) or str(exc)
        finding = request_finding(code, str(detail))
        wait = getattr(exc, "wait", None)
        if isinstance(exc, exceptions.Throttled) and wait is not None:
            finding["expected"] = f"retry in {int(wait) + 1} s"
        if isinstance(exc, PayloadTooLarge):
            finding["expected"] = exc.limit
            finding["actual"] = exc.size
        findings = [finding]
    response.data = {"findings": findings}
    return response


def _as_drf(exc: Exception, context: dict[str, Any]) -> Exception:
    """Django's ``Http404`` and ``PermissionDenied`` as DRF's exceptions, as DRF's own handler
    turns them, so that they get their codes (``CODES``) and a message.

    DRF raises a bare ``Http404`` for a ``?format=`` it has no renderer for: that one is
    located at the parameter."""
    if isinstance(exc, Http404):
        request = context.get("request")
        wanted = request.query_params.get(api_settings.URL_FORMAT_OVERRIDE) if request else None
        if not str(exc) and wanted:
            return Rejected.one(
                f"there is no format {wanted!r}: the API answers JSON",
                code="request.not_found",
                path=f"/{api_settings.URL_FORMAT_OVERRIDE}",
                status=status.HTTP_404_NOT_FOUND,
                actual=wanted,
            )
        return exceptions.NotFound(str(exc) or None)
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied(str(exc) or None)
    return exc


def _flatten(detail: Any, path: str = "") -> list[tuple[str, str]]:
    """DRF's nested error details → (JSON Pointer, message) pairs."""
    if isinstance(detail, dict):
        pairs = []
        for key, value in detail.items():
            here = path if key in ("non_field_errors", "detail") else f"{path}/{_escape(key)}"
            pairs.extend(_flatten(value, here))
        return pairs
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return [(path, str(item)) for item in detail]
        pairs = []
        for index, item in enumerate(detail):
            if item:
                pairs.extend(_flatten(item, f"{path}/{index}"))
        return pairs
    return [(path, str(detail))]


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _json_error(request: HttpRequest, status_code: int, code: str, message: str) -> JsonResponse:
    finding = request_finding(code, message, path=None)
    return JsonResponse({"findings": [finding]}, status=status_code)


def _api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 outside DRF views (an unknown URL): findings under /api/."""
    if not _api(request):
        return defaults.page_not_found(request, exception)
    return unknown_api_url(request)


@csrf_exempt
def unknown_api_url(request: HttpRequest) -> HttpResponse:
    """Every URL under /api/ that no other route takes, as the last route: findings with DEBUG
    on too, where Django shows its HTML page instead of calling ``not_found``. Only paths
    ending in a slash: the others are first redirected to one (``APPEND_SLASH``).

    Exempt from CSRF like DRF's views: it reads nothing and changes nothing, and a POST without
    a CSRF token would otherwise get Django's HTML 403 page instead of the 404 finding."""
    return _json_error(request, 404, "request.not_found", f"no such page: {request.path}")


def server_error(request: HttpRequest) -> HttpResponse:
    """The last resort: a bug gives findings without a traceback; the log has the details.

    An outage met outside a view (a middleware reading the session) is no bug: Django calls
    this while handling the exception, so it is at hand, and gets the 503 a view's gets.
    """
    if isinstance(sys.exc_info()[1], TRANSIENT):
        return unavailable(request)
    if not _api(request):
        return defaults.server_error(request)
    return _json_error(
        request, 500, "server.error", "the service failed; staff can see why in the logs"
    )


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django refused the request before any view (e.g. a body past its memory limit)."""
    if not _api(request):
        return defaults.bad_request(request, exception)
    return _json_error(request, 400, "request.invalid", "the request cannot be read")
