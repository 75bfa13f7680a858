"""How ``scripts/serve`` runs gunicorn: threaded workers that slow clients cannot hold.

Gunicorn's ``gthread`` workers keep every connection in a poller until it has sent something,
and a thread waiting on one that then goes quiet hands it back to the poller after a few
seconds: a slow-loris socket costs a file descriptor, not a worker, while a sync worker would
be held for as long as the client likes. Several threads per process serve the ordinary
requests beside a slow upload's body or a long verify. A buffering proxy in front (nginx)
is still what a public deployment wants for TLS; this needs none to stay up.

Every value comes from the environment, as the settings do: ``HOST`` and ``PORT``,
``WEB_CONCURRENCY`` processes of ``WEB_THREADS`` threads, ``WEB_TIMEOUT`` seconds.
"""

from __future__ import annotations

import json
import os
from typing import Any

from gunicorn import util
from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine
from gunicorn.workers.gthread import ThreadWorker

from core.errors import request_finding

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("WEB_THREADS", "8"))
worker_class = "config.gunicorn.Worker"
# A worker that stops answering its master this long is restarted; requests themselves are
# bounded by the API's limits, not by this.
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 5
# The request line and headers a browser or client sends fit well within these.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = "-"
# The application is loaded once, before the workers fork: they share its memory.
preload_app = True


#: Gunicorn's refusals of a request head past the limits above, before Django sees it:
#: status, reason, the finding's code (docs/format.md) and its message.
REFUSALS: dict[type[Exception], tuple[int, str, str, str]] = {
    LimitRequestLine: (
        414,
        "URI Too Long",
        "request.too_long",
        f"the request line is longer than {limit_request_line} bytes",
    ),
    LimitRequestHeaders: (
        431,
        "Request Header Fields Too Large",
        "request.too_long",
        "the request's headers are more or longer than the service accepts",
    ),
}


class Worker(ThreadWorker):
    """Gunicorn's threaded worker, answering a request head past the limits in the API's
    shape, ``{"findings": [...]}``, where gunicorn would answer an HTML page."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: Exception) -> None:
        refusal = next((r for cls, r in REFUSALS.items() if isinstance(exc, cls)), None)
        if refusal is None:
            super().handle_error(req, client, addr, exc)
            return
        status, reason, code, message = refusal
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        body = json.dumps({"findings": [request_finding(code, message)]}).encode()
        head = (
            f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        try:
            util.write_nonblock(client, head + body)
        except OSError:
            self.log.debug("Failed to send error message.")
