"""A database or broker that is down for a while: work waits and is redone, nothing is lost.

Such errors pass: a restarted server, a failover, a full connection pool. Celery tasks retry
on them (``TRANSIENT``) rather than be acknowledged as failed; a request meeting one is
answered 503 with ``Retry-After`` (``OutageMiddleware``) rather than 500; and a task that
cannot be sent after a commit is left to a periodic sweep (``send_on_commit``), since what it
would work on is committed already.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import kombu.exceptions
import redis.exceptions
from django.db import InterfaceError, OperationalError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse

from core.errors import request_finding

logger = logging.getLogger(__name__)

#: The broker's errors: kombu's for a publish that gave up, redis-py's from a connection
#: kombu did not wrap (the result backend's, a socket closed mid-command).
BROKER_ERRORS: tuple[type[Exception], ...] = (
    kombu.exceptions.OperationalError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
)
#: Errors that say a service is away, not that the work is wrong: retried, never recorded.
TRANSIENT: tuple[type[Exception], ...] = (OperationalError, InterfaceError, *BROKER_ERRORS)

#: Options of a Celery task that waits out an outage: retried on ``TRANSIENT`` errors with a
#: growing pause, up to half a minute, for as long as the outage lasts. The broker keeps the
#: message until the task ends (``acks_late``), and a worker killed under it hands it on. No
#: result is kept: sending the task then needs the broker alone, not the result backend too.
RETRYING: dict[str, Any] = {
    "ignore_result": True,
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT,
    "max_retries": None,
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "retry_jitter": True,
}

#: Seconds a client is asked to wait before it tries again (``Retry-After``).
RETRY_AFTER = 5


def send_on_commit(send: Callable[..., object], *args: Any) -> None:
    """Call ``send(*args)`` (a task's ``delay``) once the current transaction commits; a
    broker that is down then is logged, not raised: the sweep that takes what is left
    (``uploads.beat``, ``stats.beat``) sends it again."""

    def sending() -> None:
        try:
            send(*args)
        except BROKER_ERRORS as exc:
            logger.warning("broker unavailable, left for the periodic sweep: %s", exc)

    transaction.on_commit(sending)


def unavailable(request: HttpRequest) -> HttpResponse:
    """The answer to an outage, with ``Retry-After``: under /api/ the finding
    ``server.unavailable``, on the site's pages a line of text."""
    message = "a service Raspis needs is unavailable; try again shortly"
    response: HttpResponse
    if request.path.startswith("/api/"):
        finding = request_finding(
            "server.unavailable", message, expected=f"retry in {RETRY_AFTER} s"
        )
        response = JsonResponse({"findings": [finding]}, status=503)
    else:
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER)
    return response


class OutageMiddleware:
    """Answers a view that met a database or broker outage with 503 and ``Retry-After``.

    The view's transaction has rolled back by then, so nothing half-done stays; the client
    repeats the request once the service is back.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, TRANSIENT):
            return None
        logger.warning("%s %s: service unavailable: %s", request.method, request.path, exception)
        return unavailable(request)
