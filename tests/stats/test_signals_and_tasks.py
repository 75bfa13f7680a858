"""The signals of ``games`` queue the statistics update; tasks and the command call services."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import transaction

from games.models import Game
from games.services import dispute_open
from stats import tasks
from stats.models import ALL, PendingUpdate, PlayerStat
from verification.services.records import game_store

from .conftest import GAME_1, GAME_2

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The games queued when each ``stats_update_pending`` task is sent (the task not run)."""
    calls: list[list[int]] = []

    def delay() -> None:
        calls.append(list(PendingUpdate.objects.order_by("game_id").values_list("pk", flat=True)))

    monkeypatch.setattr(tasks.stats_update_pending, "delay", delay)
    return calls


def test_a_stored_game_is_queued_and_its_task_sent_on_commit(
    queued: list[list[int]], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        outcome = game_store(
            text=json.dumps(GAME_1), value=GAME_1, uploaded_by=None, visibility="public"
        )
    assert queued == [[outcome.game_id]]


def test_a_store_rolled_back_queues_nothing(queued: list[list[int]]) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        game_store(text=json.dumps(GAME_1), value=GAME_1, uploaded_by=None, visibility="public")
        assert PendingUpdate.objects.exists()  # queued with the game, in its transaction
        raise RuntimeError("the change fails after the store")
    assert not PendingUpdate.objects.exists()
    assert queued == []


def test_a_dispute_queues_the_update_of_its_game(
    queued: list[list[int]], django_capture_on_commit_callbacks: Any
) -> None:
    outcome = game_store(
        text=json.dumps(GAME_1), value=GAME_1, uploaded_by=None, visibility="public"
    )
    PendingUpdate.objects.all().delete()
    staff = User.objects.create_user("reviewer", is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        dispute_open(game=Game.objects.get(pk=outcome.game_id), by=staff, reason="wrong")
    assert queued == [[outcome.game_id]]


def test_one_task_updates_every_queued_game_and_the_next_finds_none(
    queued: list[list[int]], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        ids = [
            game_store(text=json.dumps(g), value=g, uploaded_by=None, visibility="public").game_id
            for g in (GAME_1, GAME_2)
        ]
    # A task per store, sent as the (test's) transaction commits; the games queued once each.
    assert queued == [sorted(ids), sorted(ids)]
    assert not PlayerStat.objects.exists()
    assert tasks.stats_update_pending.apply().get() == 2
    assert PlayerStat.objects.get(player__name="Anna", ruleset=ALL, period=ALL).games == 2
    assert not PendingUpdate.objects.exists()
    assert tasks.stats_update_pending.apply().get() == 0


def test_the_update_task_is_safe_to_run_twice(store: Any) -> None:
    (game_id,) = store([GAME_1])
    assert tasks.stats_update_games.apply(args=[[game_id]]).get() == 0
    assert PlayerStat.objects.get(player__name="Anna", ruleset=ALL, period=ALL).games == 1


def test_recompute_stats_rebuilds_from_the_games(store: Any) -> None:
    store([GAME_1, GAME_2])
    PlayerStat.objects.all().delete()
    out = StringIO()
    call_command("recompute_stats", stdout=out)
    assert out.getvalue().startswith("2 games, 6 seats, 2 rated")
    assert PlayerStat.objects.get(player__name="Anna", ruleset=ALL, period=ALL).games == 2
    assert tasks.stats_recompute.apply().get() == 2
