"""Migration games 0006 fills the new statistics columns of games stored before it, by
replaying their current record: the same values a new upload writes."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps

from games.models import Game, SeatDeal
from replay.engine.simulate import simulate_games
from tests.stats.conftest import store_records

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0006_seatdeal_statistics")
COLUMNS = ("id", "score", "joker_lead_highest", "jokers_held", "hook")


def state() -> tuple[list[Any], list[Any]]:
    return (
        list(SeatDeal.objects.order_by("id").values_list(*COLUMNS)),
        list(Game.objects.order_by("id").values_list("id", "point_value")),
    )


def test_the_columns_of_games_stored_before_are_filled_as_a_new_upload_fills_them() -> None:
    migration.seat_deals_fill(apps, None)  # an empty database
    records = [*simulate_games("joker54", 4, 2, 5), *simulate_games("classic", 4, 1, 6)]
    records += list(simulate_games("detsky", 3, 1, 7, sheet=True))
    records[0]["meta"]["point_value"] = "0.25"
    store_records(records)
    written = state()
    assert any(row[3] for row in written[0]) and any(row[4] for row in written[0])
    SeatDeal.objects.update(joker_lead_highest=0, jokers_held=None, hook=False, score=0)
    Game.objects.update(point_value=None)
    migration.seat_deals_fill(apps, None)
    assert state() == written
