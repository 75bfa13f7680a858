"""A real Celery worker takes a task from the broker configured in settings and runs it."""

from __future__ import annotations

import pytest
from celery.contrib.testing import tasks as testing_tasks
from celery.contrib.testing.worker import start_worker

from config.celery import app

pytestmark = pytest.mark.celery_worker


def test_a_worker_runs_a_task_sent_through_the_broker() -> None:
    assert app.conf.task_always_eager is False
    with start_worker(app, pool="solo", perform_ping_check=False):
        result = testing_tasks.ping.delay()
        assert result.get(timeout=20) == "pong"
