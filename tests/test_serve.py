"""``scripts/serve`` serves the site, and slow clients do not keep others from being answered."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(port: int, path: str, timeout: float = 30) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


@pytest.fixture(scope="module")
def served() -> Iterator[int]:
    """The port of ``scripts/serve``, started with one process, as small as it goes."""
    port = free_port()
    env = {**os.environ, "PORT": str(port), "PYTHON": sys.executable, "WEB_CONCURRENCY": "1"}
    server = subprocess.Popen(
        [str(ROOT / "scripts" / "serve")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                get(port, "/api/schema/", timeout=5)
                break
            except OSError:
                assert server.poll() is None, "scripts/serve exited"
                assert time.monotonic() < deadline, "scripts/serve did not start"
                time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_it_serves_the_api_on_the_port_given(served: int) -> None:
    response = get(served, "/api/schema/?format=json")
    assert response.status == 200
    assert response.getheader("Content-Type", "").startswith("application/vnd.oai.openapi+json")


def test_an_over_long_request_line_is_refused_in_the_apis_shape(served: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", served, timeout=30)
    connection.request("GET", "/api/games/?q=" + "a" * 8000)
    response = connection.getresponse()
    body = json.loads(response.read())
    assert response.status == 414
    assert [f["code"] for f in body["findings"]] == ["request.too_long"]


def test_two_slow_loris_sockets_do_not_stop_a_request_being_answered(served: int) -> None:
    """Each slow socket sends its request head a byte at a time, the way that held a sync
    worker for as long as the client liked; an ordinary request meanwhile gets its answer."""
    stop = threading.Event()

    def trickle() -> None:
        with socket.create_connection(("127.0.0.1", served)) as slow:
            head = b"GET /api/schema/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4000
            for byte in head:
                if stop.is_set():
                    return
                slow.send(bytes([byte]))
                time.sleep(0.5)

    slows = [threading.Thread(target=trickle, daemon=True) for _ in range(2)]
    for slow in slows:
        slow.start()
    try:
        time.sleep(2)  # both are in, each with a part of its head
        for _ in range(3):
            assert get(served, "/api/schema/", timeout=20).status == 200
    finally:
        stop.set()
        for slow in slows:
            slow.join(timeout=5)
