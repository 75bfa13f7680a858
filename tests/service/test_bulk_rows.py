"""The bulk writers of replay.services.rows, against the real database."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from psycopg import pq

from games.models import SeatDeal, Upload, UploadItem
from replay.services.rows import SEAT_DEAL_FIELDS, bulk_insert_in_flight, bulk_set

pytestmark = pytest.mark.django_db


def seat_deals(game_id: int, deals: int, seat: int = 0) -> list[tuple[object, ...]]:
    counts = (0, 0, 0, 0, 0, 0)
    return [
        (game_id, 1, seat, n, "regular", 1, 0, 0, False, 0, 5, 5 * n, *counts)
        for n in range(1, deals + 1)
    ]


def in_flight() -> bool:
    """Whether the server is still on a command of this connection (PostgreSQL only)."""
    if connection.vendor != "postgresql":
        return False
    raw = connection.connection
    return raw is not None and raw.pgconn.transaction_status == pq.TransactionStatus.ACTIVE


def test_rows_in_flight_are_all_stored_once_waited_for() -> None:
    wait = bulk_insert_in_flight(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(7, 500))
    assert in_flight() == (connection.vendor == "postgresql")
    wait()
    assert not in_flight()
    wait()  # a second wait has nothing left to collect
    assert SeatDeal.objects.filter(game_id=7).count() == 500
    assert SeatDeal.objects.get(game_id=7, number=500).running == 2500


def test_a_row_the_database_refuses_fails_by_the_wait_and_nothing_is_kept() -> None:
    rows = [*seat_deals(8, 300), *seat_deals(8, 1, seat=-1)]  # seats are never negative
    with pytest.raises(IntegrityError), transaction.atomic():
        wait = bulk_insert_in_flight(SeatDeal, SEAT_DEAL_FIELDS, rows)
        assert connection.vendor == "postgresql", "elsewhere the rows go in at once, and fail"
        wait()
    assert not SeatDeal.objects.filter(game_id=8).exists()


def test_bulk_set_sets_each_row_its_own_values_json_included(user: object) -> None:
    upload = Upload.objects.create(uploaded_by=user, size=0, sha256="")
    items = [UploadItem.objects.create(upload=upload, index=i, batch=0) for i in range(3)]
    finding = {"code": "server.error", "message": "naïve \u0000 text"}
    bulk_set(
        UploadItem,
        ("outcome", "findings"),
        [(items[0].pk, "stored", []), (items[2].pk, "failed", [finding])],
    )
    stored = {i.index: (i.outcome, i.findings) for i in UploadItem.objects.all()}
    assert stored == {
        0: ("stored", []),
        1: ("pending", []),
        2: ("failed", [{"code": "server.error", "message": "naïve \ufffd text"}]),
    }
