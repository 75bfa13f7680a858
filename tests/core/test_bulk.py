"""The bulk writers of core.bulk, against the real database."""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import psycopg
import pytest
from django.db import IntegrityError, connection, transaction

from core import bulk
from core.bulk import Writes, bulk_insert, bulk_set, bulk_upsert, foreign_keys_checked_at_once
from games.models import Game, GameSeat, Player
from uploads.models import Upload, UploadItem, UploadPart
from verification.models import SeatDeal
from verification.services.rows import SEAT_DEAL_FIELDS, SEAT_FIELDS

pytestmark = pytest.mark.django_db


def seat_deals(game_id: int, deals: int, seat: int = 0) -> list[tuple[object, ...]]:
    counts = (0, 0, 0, 0, 0, 0, 0)
    return [
        (game_id, seat, n, "regular", 1, 0, 0, False, 0, 5, 5 * n, *counts, 0, False)
        for n in range(1, deals + 1)
    ]


@pytest.fixture
def other(db: None) -> Iterator[psycopg.Connection[Any]]:
    """A second connection to the test database, to hold a lock that this one's ``COPY``
    waits for: the server is then busy with it for as long as the test wants. This one
    gives up waiting after a while, so that a test that went wrong fails rather than hangs."""
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL's inserts are queued")
    settings = connection.settings_dict
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL lock_timeout = '20s'")
    with psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"],
        host=settings["HOST"],
        port=settings["PORT"],
    ) as held:
        yield held
        held.rollback()


def table_held(held: psycopg.Connection[Any], model: Any) -> None:
    """Lock ``model``'s table from ``held`` until it rolls back: inserts into it wait."""
    held.execute(f"LOCK TABLE {model._meta.db_table} IN SHARE MODE")


def waits_for_the_lock(held: psycopg.Connection[Any], backend: int) -> None:
    """Return once this test's connection waits for a lock (a ``COPY`` in flight)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        row = held.execute(
            "SELECT count(*) FROM pg_locks WHERE pid = %s AND NOT granted", [backend]
        ).fetchone()
        if row is not None and row[0]:
            return
        time.sleep(0.01)
    raise AssertionError("the COPY never reached the server")


def backend() -> int:
    connection.ensure_connection()
    return int(connection.connection.info.backend_pid)


def test_queued_rows_are_all_stored_once_finished() -> None:
    writes = Writes()
    writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(7, 500))
    writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(7, 300, seat=1))
    writes.finish()
    writes.finish()  # a second finish has nothing left to wait for
    assert SeatDeal.objects.filter(game_id=7, seat=0).count() == 500
    assert SeatDeal.objects.filter(game_id=7, seat=1).count() == 300
    assert SeatDeal.objects.get(game_id=7, seat=0, number=500).running == 2500


def test_the_interpreter_switches_threads_often_only_while_a_copy_is_sent(other: Any) -> None:
    """The sending thread must get the interpreter soon after the socket takes more data; the
    process's own switch interval comes back once ``finish`` has waited for the sending."""
    before = sys.getswitchinterval()
    with Writes() as writes:
        writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(12, 50))
        assert sys.getswitchinterval() == pytest.approx(bulk.SWITCH_INTERVAL)
    assert sys.getswitchinterval() == pytest.approx(before)
    assert SeatDeal.objects.filter(game_id=12).count() == 50


def test_the_caller_goes_on_while_the_server_is_on_a_copy(other: Any) -> None:
    """``insert`` and ``advance`` never wait for the server; ``finish`` does, and the
    inserts then went in in order."""
    table_held(other, SeatDeal)
    writes = Writes()
    writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(9, 200))
    waits_for_the_lock(other, backend())  # the caller runs while the COPY waits
    for seat in (1, 2, 3):
        writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(9, 10, seat=seat))
        writes.advance()
    other.rollback()
    writes.finish()
    stored = SeatDeal.objects.filter(game_id=9).order_by("seat", "number")
    assert list(stored.values_list("seat", "number")) == [(0, n) for n in range(1, 201)] + [
        (seat, n) for seat in (1, 2, 3) for n in range(1, 11)
    ]


def test_inserts_queued_behind_one_into_the_same_table_go_in_as_one_copy(
    other: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file's parts queue up while the server takes in the first: it then takes in the
    rest in one go, with no wait between them."""
    copies: list[str] = []
    send = bulk._copy_send

    def counted(raw: Any, statement: str, data: Any) -> None:
        copies.append(statement)
        send(raw, statement, data)

    monkeypatch.setattr(bulk, "_copy_send", counted)
    table_held(other, SeatDeal)
    writes = Writes()
    writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(8, 20))
    waits_for_the_lock(other, backend())
    for seat in (1, 2, 3):
        writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(8, 10, seat=seat))
    writes.insert(GameSeat, SEAT_FIELDS, [])  # nothing to insert: not queued
    other.rollback()
    writes.finish()
    assert len(copies) == 2
    assert SeatDeal.objects.filter(game_id=8).count() == 50


def test_ids_drawn_for_queued_rows_are_the_rows_ids(user: object) -> None:
    upload = Upload.objects.create(uploaded_by=user, size=0, sha256="")
    with Writes() as writes:
        writes.reserve({UploadPart: 2})  # one short: the third is drawn when needed
        ids = writes.insert(
            UploadPart,
            ("upload_id", "offset", "data"),
            [(upload.pk, i, bytes([i])) for i in range(3)],
            returning_ids=True,
        )
    assert len(set(ids)) == 3
    assert dict(UploadPart.objects.values_list("offset", "id")) == dict(enumerate(ids))


def test_a_row_the_database_refuses_fails_by_the_finish_and_nothing_is_kept() -> None:
    rows = [*seat_deals(8, 300), *seat_deals(8, 1, seat=-1)]  # seats are never negative
    with pytest.raises(IntegrityError), transaction.atomic():
        writes = Writes()
        writes.insert(SeatDeal, SEAT_DEAL_FIELDS, rows)
        assert connection.vendor == "postgresql", "elsewhere the rows go in at once, and fail"
        writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(8, 5, seat=2))
        writes.finish()
    assert not SeatDeal.objects.filter(game_id=8).exists()


def test_after_a_failed_copy_the_connection_goes_on_in_the_transaction() -> None:
    """Rolled back to a savepoint, the transaction takes further queries and writes."""
    with transaction.atomic():
        with pytest.raises(IntegrityError), transaction.atomic(), Writes() as writes:
            writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(6, 1, seat=-1))
        with Writes() as writes:
            writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(6, 4))
        assert SeatDeal.objects.filter(game_id=6).count() == 4


def test_leaving_on_an_error_drops_the_queue_and_leaves_the_connection_usable() -> None:
    with pytest.raises(RuntimeError), transaction.atomic(), Writes() as writes:
        writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(10, 300))
        writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(10, 300, seat=1))
        raise RuntimeError("a bug while the rows are going in")
    assert not SeatDeal.objects.filter(game_id=10).exists()


def test_a_wait_cut_short_is_waited_again_on_the_way_out(other: Any) -> None:
    """A time limit (a signal) may stop a worker while it waits for the server: the
    rollback that follows needs the connection free, so the ``COPY`` is still waited for."""

    def time_limit(*_: object) -> None:
        raise TimeoutError("the task's time limit")

    table_held(other, SeatDeal)
    released = threading.Timer(0.5, other.rollback)  # the server gets on with the COPY
    before = signal.signal(signal.SIGALRM, time_limit)
    try:
        with pytest.raises(TimeoutError), transaction.atomic(), Writes() as writes:
            writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(11, 300))
            signal.setitimer(signal.ITIMER_REAL, 0.2)
            released.start()
            writes.finish()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
        released.cancel()
    assert not SeatDeal.objects.filter(game_id=11).exists()


def test_a_queued_row_with_a_missing_reference_fails_as_it_goes_in_not_at_the_commit() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite checks foreign keys at the commit")
    player = Player.objects.create(name="Vera", key="vera")
    with transaction.atomic():
        foreign_keys_checked_at_once()
        writes = Writes()
        writes.insert(GameSeat, SEAT_FIELDS, [(987654, 0, player.pk, "Vera", 0, 1, True)])
        with pytest.raises(IntegrityError, match="game"):
            writes.finish()
        transaction.set_rollback(True)
    assert not GameSeat.objects.exists()


def test_bulk_set_sets_each_row_its_own_values_json_included(user: object) -> None:
    upload = Upload.objects.create(uploaded_by=user, size=0, sha256="")
    items = [UploadItem.objects.create(upload=upload, index=i, batch=0) for i in range(4)]
    game = Game.objects.create(ruleset_preset="classic", players_count=4, deals_count=0)
    UploadItem.objects.filter(pk=items[3].pk).update(game=game)
    finding = {"code": "server.error", "message": "naïve \u0000 text"}
    bulk_set(
        UploadItem,
        ("outcome", "findings"),
        [(items[0].pk, "stored", []), (items[2].pk, "failed", [finding])],
    )
    bulk_set(UploadItem, ("game_id",), [(items[1].pk, game.pk), (items[0].pk, None)])
    bulk_set(UploadItem, ("game_id",), [(items[3].pk, None)])  # a column of NULLs alone
    stored = {i.index: (i.outcome, i.game_id, i.findings) for i in UploadItem.objects.all()}
    assert stored == {
        0: ("stored", None, []),
        1: ("pending", game.pk, []),
        2: ("failed", None, [{"code": "server.error", "message": "naïve \ufffd text"}]),
        3: ("pending", None, []),
    }


def test_bulk_upsert_inserts_new_keys_replaces_and_adds_to_existing_ones() -> None:
    from django.utils import timezone

    from stats.models import PlayerStat

    anna, boris = (Player.objects.create(name=n, key=n.lower()) for n in ("Anna", "Boris"))
    now = timezone.now()
    fields = (
        *("player_id", "ruleset", "period", "games", "wins", "total", "deals", "points"),
        *("bids", "exact", "best_total", "counters", "percentiles", "body", "version"),
        "updated_at",
    )

    def upsert(*rows: tuple[object, ...]) -> None:
        bulk_upsert(
            PlayerStat,
            fields,
            [(p, r, "", g, 0, 0, 0, 0, 0, 0, best, c, {}, "", 1, now) for p, r, g, best, c in rows],
            unique=("player", "ruleset", "period"),
            replace=("best_total", "counters"),
            increment=("games", "version"),
        )

    upsert((anna.pk, "", 2, 7, {"a": 1}), (boris.pk, "", 1, None, {}))
    upsert((anna.pk, "", 3, Decimal("7.5"), {"b": 2}), (anna.pk, "x", 1, 1, {}))
    stored = PlayerStat.objects.order_by("player_id", "ruleset").values_list(
        "player_id", "ruleset", "games", "best_total", "counters", "version"
    )
    assert list(stored) == [
        (anna.pk, "", 5, Decimal("7.5"), {"b": 2}, 2),
        (anna.pk, "x", 1, 1, {}, 1),
        (boris.pk, "", 1, None, {}, 1),
    ]


def test_bulk_set_takes_ints_and_decimals_in_one_decimal_column() -> None:
    """Scores are ints where they are whole and Decimals where they are not
    (``rows.score_value``); the migration of games 0006 sets both at once."""
    bulk_insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals(3, 3))
    ids = list(SeatDeal.objects.order_by("number").values_list("pk", flat=True))
    bulk_set(SeatDeal, ("score", "jokers_held"), [(ids[0], 7, None), (ids[2], Decimal("2.5"), 1)])
    assert list(SeatDeal.objects.order_by("number").values_list("score", "jokers_held")) == [
        (7, None),
        (5, 0),
        (Decimal("2.5"), 1),
    ]
