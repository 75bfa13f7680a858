"""The queue of pending statistics updates (``stats_update_pending``) loses no change that is
made while an update runs: PostgreSQL's locks, with two connections, so the test needs it."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from django.db import connection, transaction

from stats import services, tasks
from stats.models import PendingUpdate
from verification.services.records import game_store

from .conftest import GAME_1

pytestmark = pytest.mark.django_db(transaction=True)


def in_thread(work: Any) -> threading.Thread:
    """``work`` on a thread of its own, with its own database connection, closed after."""

    def run() -> None:
        try:
            work()
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.fixture
def game_id(monkeypatch: pytest.MonkeyPatch) -> int:
    """A stored game, queued for its statistics update (no task sent), on PostgreSQL."""
    if connection.vendor != "postgresql":
        pytest.skip("two writers at once: SQLite runs one at a time")
    monkeypatch.setattr(tasks.stats_update_pending, "delay", lambda: None)
    text = json.dumps(GAME_1)
    game_id = game_store(text=text, value=GAME_1, uploaded_by=None, visibility="public").game_id
    assert list(PendingUpdate.objects.values_list("pk", flat=True)) == [game_id]
    return game_id


def test_a_game_queued_while_an_update_runs_stays_queued_for_the_next(
    monkeypatch: pytest.MonkeyPatch, game_id: int
) -> None:
    reading, release = threading.Event(), threading.Event()
    update = services.stats_update_games

    def update_slowly(*, game_ids: list[int]) -> int:
        reading.set()  # the queue's rows are deleted, the games not read yet
        assert release.wait(10)
        return update(game_ids=game_ids)

    monkeypatch.setattr(services, "stats_update_games", update_slowly)
    changed: list[int] = []
    updater = in_thread(lambda: changed.append(services.stats_update_pending()))
    assert reading.wait(10)
    queued = threading.Event()
    # The game changes now: the update may have read it before, so it must stay queued.
    queuer = in_thread(lambda: (services.updates_queue(game_ids=[game_id]), queued.set()))
    assert not queued.wait(0.5), "the insert should wait for the update's transaction"
    release.set()
    updater.join(10)
    queuer.join(10)
    assert changed == [1]
    assert queued.is_set()
    assert list(PendingUpdate.objects.values_list("pk", flat=True)) == [game_id]


def test_an_update_waits_for_an_uncommitted_change_to_a_game_already_queued(
    monkeypatch: pytest.MonkeyPatch, game_id: int
) -> None:
    queued, commit = threading.Event(), threading.Event()

    def change() -> None:
        # A change queues its game in its own transaction, then takes a while to commit.
        with transaction.atomic():
            services.updates_queue(game_ids=[game_id])
            queued.set()
            assert commit.wait(10)

    changer = in_thread(change)
    assert queued.wait(10)
    reading = threading.Event()
    update = services.stats_update_games

    def update_noted(*, game_ids: list[int]) -> int:
        reading.set()
        return update(game_ids=game_ids)

    monkeypatch.setattr(services, "stats_update_games", update_noted)
    changed: list[int] = []
    updater = in_thread(lambda: changed.append(services.stats_update_pending()))
    # Read now, the game would be counted as it was before the change.
    assert not reading.wait(0.5), "the update should wait for the change to commit"
    commit.set()
    changer.join(10)
    updater.join(10)
    assert reading.is_set()
    assert changed == [1]
    assert not PendingUpdate.objects.exists()
