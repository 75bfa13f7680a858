"""Faults a deployment meets, on a throwaway Raspis (``stack``): each ends with every accepted
record stored exactly once, with no manual step, and never a 500.

The sweep is set to re-queue an upload stalled for a few seconds, and the broker's
visibility timeout left at its ten minutes: what heals here is the sweep, as in production
it heals minutes sooner than the broker would hand a dead worker's task on. Each test prints
what it measured (``-s`` shows it).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from replay.simulate import simulate_game
from tests.fault.stack import Stack, available, stack, wait_for

pytestmark = [
    pytest.mark.fault,
    pytest.mark.skipif(available() is not None, reason=str(available())),
]

RECORDS = 10  # per upload of the load
SETTINGS = {
    "RASPIS_UPLOAD_BATCH_SIZE": "5",
    "RASPIS_UPLOAD_STALL_SECONDS": "3",
    "RASPIS_UPLOAD_SWEEP_SECONDS": "1",
}
BASE = [simulate_game("classic", 4, 20261201 + i) for i in range(4)]


def jsonl(name: str, count: int = RECORDS) -> bytes:
    """``count`` records, each a game of its own (``external_id``), named after ``name``."""
    import json

    lines = []
    for i in range(count):
        record = BASE[i % len(BASE)]
        meta = {**record["meta"], "external_id": f"{name}-{i}"}
        lines.append(json.dumps({**record, "meta": meta}, ensure_ascii=False))
    return "\n".join(lines).encode()


@pytest.fixture(scope="module")
def raspis() -> Iterator[Stack]:
    """One stack for the module: each test leaves it running, and counts its own uploads."""
    with stack(**SETTINGS) as made:
        yield made


class Load:
    """A client uploading a file a second, and readers, until stopped; what they were
    answered. A load a single worker keeps up with, so that what is measured is the healing,
    not a backlog."""

    def __init__(self, raspis: Stack, uploaders: int = 1, readers: int = 2) -> None:
        self.raspis = raspis
        self.name = uuid.uuid4().hex[:8]  # records of their own, whatever ran before
        self.accepted: list[int] = []
        self.statuses: list[int] = []
        self.slowest = 0.0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._upload, args=(n,), daemon=True) for n in range(uploaders)
        ] + [threading.Thread(target=self._read, daemon=True) for _ in range(readers)]

    def __enter__(self) -> Load:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=90)

    def _answered(self, call: Any) -> Any:
        started = time.monotonic()
        try:
            answer = call()
        except OSError:
            return None  # refused or cut: the server was not up, which is no answer at all
        with self._lock:
            self.statuses.append(answer.status)
            self.slowest = max(self.slowest, time.monotonic() - started)
        return answer

    def _upload(self, n: int) -> None:
        sent = 0
        while not self._stop.is_set():
            sent += 1
            data = jsonl(f"{self.name}-{n}-{sent}")
            answer = self._answered(lambda: self.raspis.upload("a.jsonl", data))  # noqa: B023
            if answer is not None and answer.status == 202:
                with self._lock:
                    self.accepted.append(answer.body["id"])
            elif answer is not None and answer.status == 503:
                time.sleep(float(answer.retry_after or 1))
            time.sleep(1)

    def _read(self) -> None:
        while not self._stop.is_set():
            self._answered(lambda: self.raspis.get("/api/uploads/"))
            time.sleep(0.1)

    def report(self, what: str, healed: float) -> str:
        errors = sum(s >= 500 for s in self.statuses)
        return (
            f"{what}: {len(self.accepted)} uploads accepted ({len(self.accepted) * RECORDS} "
            f"records), all stored once; healed {healed:.1f} s after the fault ended; "
            f"{len(self.statuses)} answers, {errors} 5xx ({self.statuses.count(500)} × 500, "
            f"{self.statuses.count(503)} × 503); slowest answer {self.slowest:.1f} s"
        )


def test_a_worker_killed_mid_upload_leaves_no_record_behind(raspis: Stack) -> None:
    answer = raspis.upload("k.jsonl", jsonl("k", 100))
    assert answer.status == 202
    upload_id = answer.body["id"]
    wait_for(lambda: raspis.uploads()[upload_id][2] >= 10, 60, "the worker stores a batch")
    raspis.kill("worker")  # SIGKILL, in the middle of a batch or between two
    killed_at = time.monotonic()
    status, _, done, _ = raspis.uploads()[upload_id]
    assert status == "running"
    raspis.worker()  # the supervisor's restart
    wait_for(lambda: raspis.all_done([upload_id]), 120, "the upload finishes")
    healed = time.monotonic() - killed_at
    raspis.stored_once([upload_id], 100)
    print(f"\nworker killed at {done}/100 records: all stored {healed:.1f} s after the kill")


def test_postgresql_restarted_under_load_loses_nothing_and_answers_no_500(
    raspis: Stack,
) -> None:
    with Load(raspis) as load:
        wait_for(lambda: len(load.accepted) >= 3, 60, "uploads accepted")
        raspis.postgres.restart()
        restarted_at = time.monotonic()
        time.sleep(5)
    wait_for(lambda: raspis.all_done(load.accepted), 120, "every upload finishes")
    healed = time.monotonic() - restarted_at
    raspis.stored_once(load.accepted, RECORDS)
    assert 500 not in load.statuses
    assert set(load.statuses) <= {200, 202, 503}, set(load.statuses)
    print("\n" + load.report("PostgreSQL restarted", healed))


def test_redis_stopped_for_40_s_loses_nothing_and_answers_no_500(raspis: Stack) -> None:
    with Load(raspis) as load:
        wait_for(lambda: len(load.accepted) >= 3, 60, "uploads accepted")
        raspis.redis.stop()
        stopped = len(load.accepted)
        time.sleep(40)
        while_down = len(load.accepted) - stopped
        assert while_down > 0, "no upload was accepted while the broker was down"
        raspis.redis.start()  # empty: what it held is gone
        started_at = time.monotonic()
        time.sleep(2)
    wait_for(lambda: raspis.all_done(load.accepted), 120, "every upload finishes")
    healed = time.monotonic() - started_at
    raspis.stored_once(load.accepted, RECORDS)
    assert 500 not in load.statuses
    assert set(load.statuses) <= {200, 202, 503}, set(load.statuses)
    assert load.slowest < 10, "a request waited on the broker"
    print("\n" + load.report("Redis stopped for 40 s", healed))
    print(f"{while_down} uploads accepted while Redis was down")
