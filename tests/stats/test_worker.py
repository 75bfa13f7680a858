"""Through a real worker: a stored game's statistics are computed by Celery via the broker."""

from __future__ import annotations

import json
import time

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app
from stats.models import ALL, PlayerStat, Rating
from verification.services.records import game_store

from .conftest import GAME_1, staff_uploader

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def test_a_worker_computes_the_statistics_of_a_stored_game() -> None:
    with start_worker(app, pool="solo", perform_ping_check=False):
        # The service's transaction commits, the signal queues the task, the worker runs it.
        # Uploaded by staff, so that it is rated too (docs/trust.md).
        game_store(
            text=json.dumps(GAME_1), value=GAME_1, uploaded_by=staff_uploader(), visibility="public"
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            row = PlayerStat.objects.filter(player__name="Vera", ruleset=ALL, period=ALL).first()
            if row is not None:
                break
            time.sleep(0.1)
    assert row is not None and (row.games, row.wins) == (1, 1)
    assert Rating.objects.filter(ruleset="classic").count() == 3
