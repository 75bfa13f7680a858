"""The engine's report → database rows, and the bulk insert that writes them.

Ingest writes one row per seat per deal (about 145 for a four-player classic game), so rows
are built as plain tuples and written with PostgreSQL's ``COPY`` (SQLite, for a checkout,
takes ``bulk_create``). Text that PostgreSQL refuses — a NUL character or a lone surrogate,
both of which a JSON record may legally contain in a player's name — is cleaned here, at the
one place where values leave Python, so that no record can make the service fail.
"""

from __future__ import annotations

import functools
import gc
import json
from collections import deque
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from itertools import chain
from operator import add
from typing import Any

import psycopg
from django.db import connection, models
from django.utils import timezone
from psycopg import pq
from psycopg.copy import LibpqWriter
from psycopg.errors import error_from_result
from psycopg.generators import fetch_many
from psycopg.types.json import Jsonb
from psycopg.waiting import Wait

from replay.engine import Report
from replay.engine.report import DealResult

JOKER_HIGH = (0, 1)  #: a silent joker (detsky) is played high
JOKER_LOW = 2
JOKER_PLAIN = 3
JOKER_DEMAND = (4, 5)
JOKER_LEAD_HIGHEST = 4
_NO_JOKER: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0)  #: a seat's joker counts when it plays none
SCORE_SCALE = 10_000  #: the score columns' four places
INT_MAX = 2**31 - 1
PLAYER_MAX = 200  #: the player name columns' length
SCORE_MAX = Decimal(10) ** 10 - 1
_UNITS_MAX = int(SCORE_MAX) * SCORE_SCALE
_SCORE_HALF = int(SCORE_MAX) // 2


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a batch's records are parsed and replayed.

    A batch keeps thousands of freshly parsed objects alive at once, and each young
    collection then walks all of them: with collection on, splitting a 40 MB JSON Lines file
    took five times as long. Nothing here makes cycles worth collecting before the end.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def clean_text(text: str) -> str:
    """``text`` as PostgreSQL can store it: NUL and lone surrogates become U+FFFD."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return text


def jsonb_text(value: Any) -> str:
    """JSON that ``jsonb`` accepts: it refuses ``\\u0000`` and lone surrogate escapes."""
    return clean_text(json.dumps(value, ensure_ascii=False)).replace("\\u0000", "\\ufffd")


def json_safe(value: Any) -> Any:
    """``value`` rebuilt so that it can go into a ``jsonb`` column through the ORM."""
    return json.loads(jsonb_text(value))


def score_units(score: int | float | Fraction | Decimal) -> int:
    """A score in 1/SCORE_SCALE points (the columns' four places), rounded half to even.

    The statistics count points in these units too (``stats.contributions``), so a score
    read back from a column is exactly the one the replay gave, rounded the same way.
    """
    if type(score) is int:
        return score * SCORE_SCALE
    return round(Fraction(score) * SCORE_SCALE)


def score_value(score: int | float | Fraction) -> int | Decimal:
    """An engine score for a decimal column: ``score_units`` of it, held to the column's range.

    Scores are exact ints or fractions, or finite floats: fractions of a point in binary
    (halves), or claimed by a sheet (the engine finds ``NaN`` and ``Infinity`` malformed).
    A fraction or float past the column's range (an illegal record's bid of 10**30 scores
    10**31) is held to it; ints are left to ``_clamp``, where the game is not trusted.
    """
    if type(score) is int:
        return score
    if isinstance(score, float):
        return _float_score(score)
    return _units_value(score_units(score))


@functools.lru_cache(maxsize=1024)
def _float_score(score: float) -> Decimal:
    """``score_value`` of a float. The same few halves recur in every game of a ruleset that
    scores them, and converting each took a fiftieth of ingest's time."""
    return _units_value(score_units(score))


def _units_value(units: int) -> Decimal:
    return Decimal(max(-_UNITS_MAX, min(_UNITS_MAX, units))).scaleb(-4)


def point_value(meta: Any) -> str | None:
    """``meta.point_value`` as a decimal numeral when it is a positive finite number (a
    numeric string too), for ``Game.point_value``; None otherwise (meta is free)."""
    if not isinstance(meta, dict):
        return None
    value = meta.get("point_value")
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    if not number.is_finite() or number <= 0:
        return None
    return str(number)


def played_at(meta: Any) -> datetime | None:
    """``meta.played_at`` as an aware datetime, or None when absent or unreadable (meta is free)."""
    if not isinstance(meta, dict) or not isinstance(meta.get("played_at"), str):
        return None
    try:
        when = datetime.fromisoformat(meta["played_at"].strip())
    except ValueError:
        return None
    try:
        if timezone.is_naive(when):
            when = timezone.make_aware(when, timezone.get_default_timezone())
        # The database keeps UTC: a time that has none (year 9999 at -23:59) is unreadable,
        # and PostgreSQL takes no offset past 15:59, so it never sees the one written (+16:43).
        return when.astimezone(UTC)
    except OverflowError:
        return None


def meta_text(meta: Any, key: str, limit: int = 200) -> str:
    """A short text field of ``meta`` (numbers accepted, e.g. an external id of 17)."""
    if not isinstance(meta, dict):
        return ""
    value = meta.get(key)
    if isinstance(value, bool) or not isinstance(value, str | int):
        return ""
    return clean_text(str(value).strip())[:limit]


def places(totals: Sequence[int | float | Fraction]) -> list[int]:
    """Competition ranking by total, highest first: equal totals share a place (1, 1, 3)."""
    return [1 + sum(1 for other in totals if other > total) for total in totals]


SEAT_FIELDS = ("game_id", "seat", "player_id", "name", "total", "place", "winner")


def seat_rows(
    game_id: int, report: Report, player_ids: Sequence[int], names: Sequence[str]
) -> list[tuple[Any, ...]]:
    totals = report.totals or [0] * len(names)
    ranks = places(totals)
    winners = set(report.winners)
    return [
        (
            game_id,
            seat,
            player_ids[seat],
            names[seat],
            _clamp(score_value(t)),
            ranks[seat],
            seat in winners,
        )
        for seat, t in enumerate(totals)
    ]


SEAT_DEAL_FIELDS = (
    "game_id",
    "player_id",
    "seat",
    "number",
    "kind",
    "cards",
    "trump",
    "bid",
    "dark",
    "taken",
    "score",
    "running",
    "jokers",
    "joker_high",
    "joker_low",
    "joker_plain",
    "joker_demand",
    "joker_wins",
    "joker_lead_highest",
    "jokers_held",
    "hook",
)


def seat_deal_rows(
    game_id: int,
    deals: Sequence[DealResult],
    player_ids: Sequence[int],
    *,
    trusted: bool,
    hook: bool,
) -> list[tuple[Any, ...]]:
    """One tuple per seat per deal, in ``SEAT_DEAL_FIELDS`` order; ``hook``: the ruleset's.

    An illegal record may claim absurd numbers (a bid of 10**30): unless the game is
    ``trusted`` (verified, so every number was checked), values are clamped to the columns'
    range. The stored record and report keep them exactly. A verified game's scores are only
    as small as its ruleset makes them (a club may score a trick at 10**12 points), so they
    are looked at before the game is trusted.
    """
    trusted = trusted and _scores_fit(deals)
    rows: list[tuple[Any, ...]] = []
    append = rows.append
    n = len(player_ids)
    seats = list(enumerate(player_ids))
    no_jokers = [_NO_JOKER] * n
    no_bids = [None] * n
    no_blind = [False] * n
    unknown = [None] * n
    for d in deals:
        number, kind, cards, trump = d.number, d.kind, d.cards, d.trump
        bids = d.bids or no_bids
        blind = d.blind or no_blind
        taken, scores, running = d.taken, d.scores, d.running
        counts = _joker_counts(d, n) if d.jokers else no_jokers
        held = unknown if d.jokers_held is None else d.jokers_held
        hooked = d.last_bidder if hook else None
        for seat, player_id in seats:
            score = scores[seat]
            total = running[seat]
            # Unpacked so that each row is one tuple: concatenated, it took three more.
            plays, high, low, plain, demand, wins, lead_highest = counts[seat]
            append(
                (
                    game_id,
                    player_id,
                    seat,
                    number,
                    kind,
                    cards,
                    trump,
                    bids[seat],
                    blind[seat],
                    taken[seat],
                    # Nearly every score is an int, which score_value returns as it is.
                    score if type(score) is int else score_value(score),
                    total if type(total) is int else score_value(total),
                    plays,
                    high,
                    low,
                    plain,
                    demand,
                    wins,
                    lead_highest,
                    held[seat],
                    seat == hooked,
                )
            )
    return rows if trusted else [tuple(_clamp(v) for v in row) for row in rows]


def _scores_fit(deals: Sequence[DealResult]) -> bool:
    """Whether every score and running total is within the score columns' range. It may say
    no for a game that fits, where clamping then changes nothing; never yes for one that does
    not.

    Only the running totals are read, within half the range: a deal's score is the difference
    of two of them (the first from 0), so it is within the range too. Nothing else of a
    verified game can be past its column: the deck bounds cards, bids and taken.
    """
    if not deals:
        return True
    # One list of them all: a min and a max of each deal's took twice as long.
    running = list(chain.from_iterable([d.running for d in deals]))
    return min(running) >= -_SCORE_HALF and max(running) <= _SCORE_HALF


def _clamp(value: Any) -> Any:
    if type(value) is int:
        return max(-INT_MAX, min(INT_MAX, value))
    if isinstance(value, Decimal):
        return max(-SCORE_MAX, min(SCORE_MAX, value))
    return value


def _joker_counts(deal: DealResult, n: int) -> list[tuple[int, ...]]:
    """Each seat's joker counts in the deal, in ``seat_deal_rows``' order (plays, high, low,
    plain, demand, wins, lead_highest).

    A seat mostly plays one joker a deal, if any, and its counts are then those of that one
    play, made once per declaration and outcome (``_play_counts``): counting every play anew
    took a third of the time of a game's seat-deal rows.
    """
    counts: list[tuple[int, ...]] = [_NO_JOKER] * n
    for joker in deal.jokers:
        seat = joker.seat
        play = _play_counts(joker.declaration, joker.won)
        counts[seat] = play if counts[seat] is _NO_JOKER else tuple(map(add, counts[seat], play))
    return counts


@functools.lru_cache(maxsize=64)
def _play_counts(declaration: int, won: bool) -> tuple[int, ...]:
    """The joker counts of one play (``_joker_counts``)."""
    return (
        1,
        int(declaration in JOKER_HIGH),
        int(declaration == JOKER_LOW),
        int(declaration == JOKER_PLAIN),
        int(declaration in JOKER_DEMAND),
        int(won),
        int(declaration == JOKER_LEAD_HIGHEST),
    )


FINDING_FIELDS = (
    "report_id",
    "game_id",
    "code",
    "severity",
    "deal",
    "trick",
    "play",
    "seat",
    "player",
    "message",
    "expected",
    "actual",
    "path",
)


def player_column(name: str) -> str:
    """A player's name as the name columns hold it: seats, findings, and the lookups of
    players by name. The record and report keep the whole name."""
    return clean_text(name)[:PLAYER_MAX]


def finding_rows(report_id: int, game_id: int, report: Report) -> list[tuple[Any, ...]]:
    return [
        (
            report_id,
            game_id,
            str(f.code),
            str(f.level),
            f.deal,
            f.trick,
            f.play,
            f.seat,
            None if f.player is None else player_column(f.player),  # the report keeps it whole
            clean_text(f.message),
            f.expected,
            f.actual,
            f.path if f.path is None else clean_text(f.path),
        )
        for f in report.findings
    ]


def bulk_insert(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Sequence[tuple[Any, ...]],
    *,
    dumps: Callable[[Any], str] = jsonb_text,
) -> None:
    """Insert ``rows`` (tuples in ``fields`` order): ``COPY`` on PostgreSQL, else bulk_create.

    JSON fields take Python values, written by ``dumps`` on PostgreSQL; ``None`` in one is
    SQL NULL. ``Writes`` does the same behind the verification, and returns new primary keys.
    """
    if not rows:
        return
    if connection.vendor != "postgresql":
        _created(model, fields, rows)
        return
    _copy(model, fields, rows, dumps=dumps)


def _created(
    model: type[models.Model], fields: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> list[int]:
    """``rows`` inserted by Django's ``bulk_create``; their primary keys, in row order."""
    objects = [model(**dict(zip(fields, row, strict=True))) for row in rows]
    model.objects.bulk_create(objects, batch_size=500)  # type: ignore[attr-defined]
    return [obj.pk for obj in objects]


class Writes:
    """Bulk inserts that PostgreSQL takes in while Python goes on verifying records.

    An upload's batch is one transaction on one connection, so its inserts cannot run side by
    side; but none of them returns anything the batch waits for (their ids are drawn from the
    sequences beforehand). So ``insert`` queues the rows; the queue's first insert is sent as
    a ``COPY`` and ended without waiting for the server (``_CopyInFlight``); ``advance``,
    called between two records, reads that result once the server has it, never blocking, and
    sends the next. Before the connection is used for anything else, ``finish`` waits for all
    of them. Used as a context manager, it finishes on the way out, and on an exception drops
    what is queued and leaves the connection usable. Elsewhere than on PostgreSQL every
    insert goes in at once.

    With the server's part of the inserts done while Python verifies, an upload's worker
    spends far less of its time waiting (``bench/ingest.py``).
    """

    def __init__(self) -> None:
        self._queue: deque[tuple[type[models.Model], Sequence[str], Sequence[tuple[Any, ...]]]]
        self._queue = deque()
        self._sent: _CopyInFlight | None = None
        self._ids: dict[type[models.Model], deque[int]] = {}
        self._queues = connection.vendor == "postgresql"

    def __enter__(self) -> Writes:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            self.finish()
            return
        self._queue.clear()
        with suppress(Exception):  # the first error is the one to report
            self._collect()

    def reserve(self, counts: Mapping[type[models.Model], int]) -> None:
        """Draw ids for the coming ``insert(..., returning_ids=True)`` calls, at a moment
        the connection is free anyway: drawn later, they would wait for the queue."""
        if not self._queues:
            return
        for model, count in counts.items():
            pool = self._ids.setdefault(model, deque())
            if count > len(pool):
                self.finish()
                pool.extend(_ids_reserve(model, count - len(pool)))

    def insert(
        self,
        model: type[models.Model],
        fields: Sequence[str],
        rows: Sequence[tuple[Any, ...]],
        *,
        returning_ids: bool = False,
    ) -> list[int]:
        """``bulk_insert``, queued on PostgreSQL: the rows are in once ``finish`` returns.

        With ``returning_ids`` the new primary keys come back in row order. On PostgreSQL
        they are drawn from the table's sequence (``reserve``), so that the rows can still go
        in by ``COPY``: Django's ``bulk_create`` binds every value as an array parameter,
        which psycopg escapes slowly for long texts such as records and reports.
        """
        if not rows:
            return []
        if not self._queues:
            ids = _created(model, fields, rows)
            return ids if returning_ids else []
        ids = []
        if returning_ids:
            self.reserve({model: len(rows)})
            pool = self._ids[model]
            ids = [pool.popleft() for _ in rows]
            fields = ("id", *fields)
            rows = [(pk, *row) for pk, row in zip(ids, rows, strict=True)]
        self._queue.append((model, fields, rows))
        self.advance()
        return ids

    def advance(self) -> None:
        """Send the next insert if the server is done with the one before; never waits."""
        if self._sent is not None:
            if not self._sent.ready():
                return
            self._collect()
        if self._queue:
            model, fields, rows = self._queue.popleft()
            if self._queue and self._queue[0][:2] == (model, fields):
                # The same insert queued again (a file's parts): one COPY for them all, which
                # the server takes in without waiting between them.
                rows = [*rows]
                while self._queue and self._queue[0][:2] == (model, fields):
                    rows.extend(self._queue.popleft()[2])
            self._sent = _send(model, fields, rows)

    def finish(self) -> None:
        """Wait until every queued insert is in; an error of any of them is raised here."""
        while self._sent is not None or self._queue:
            self._collect()
            self.advance()

    def _collect(self) -> None:
        if self._sent is not None:
            self._sent.wait()  # cut short (a time limit), it is still there to wait for again
            self._sent = None


def foreign_keys_checked_at_once() -> None:
    """Check the rest of this transaction's foreign keys as each statement ends (PostgreSQL).

    Django makes them deferred: checked at the commit, where the worker waits for them all,
    thousands per batch. Checked as each queued insert goes in (``Writes``), they are part of
    the work PostgreSQL does while Python verifies. Inserts must then follow the references
    (a game before its records), as ``Writes`` sends them in order.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def _send(
    model: type[models.Model], fields: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> _CopyInFlight:
    with connection.cursor() as cursor:
        writer = _CopyInFlight(cursor.cursor)
        _copy(model, fields, rows, writer)
    return writer


def _copy(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Sequence[tuple[Any, ...]],
    writer: LibpqWriter | None = None,
    *,
    dumps: Callable[[Any], str] = jsonb_text,
) -> None:
    """``rows`` into ``model``'s table by a binary ``COPY``.

    The binary format takes each value as it is held: in text, psycopg would spell every
    number out and scan every text for characters to escape (records and reports run to
    tens of kilobytes), which took twice as many instructions for an upload's rows.
    """
    sql, types, json_columns = _copy_statement(model, tuple(fields))
    with connection.cursor() as cursor, cursor.cursor.copy(sql, writer=writer) as copy:
        copy.set_types(types)
        write = copy.write_row
        if json_columns:
            for row in rows:
                values = list(row)
                for i in json_columns:
                    if values[i] is not None:
                        values[i] = Jsonb(values[i], dumps=dumps)
                write(values)
        else:
            for row in rows:
                write(row)


@functools.lru_cache(maxsize=64)
def _copy_statement(
    model: type[models.Model], fields: tuple[str, ...]
) -> tuple[str, list[str], list[int]]:
    """The ``COPY`` of ``fields`` into ``model``'s table, its columns' PostgreSQL types as
    psycopg names them (``varchar(20)`` is ``varchar``), and the places of its JSON columns.

    Made once per table and fields: Django renders each column's type anew, which took a
    twentieth of an upload's batch when done for every ``COPY``.
    """
    columns = [_field(model, name) for name in fields]
    quote = connection.ops.quote_name
    names = ", ".join(quote(field.column) for field in columns)
    sql = f"COPY {quote(model._meta.db_table)} ({names}) FROM STDIN (FORMAT BINARY)"
    types = []
    for field in columns:
        db_type = field.db_type(connection)
        assert db_type is not None, f"{field} has no column"
        types.append(db_type.split("(", 1)[0].strip())
    json_columns = [i for i, field in enumerate(columns) if isinstance(field, models.JSONField)]
    return sql, types, json_columns


class _CopyInFlight(LibpqWriter):
    """Ends a ``COPY`` without waiting for its result, which ``wait`` collects.

    psycopg's own writer ends a copy and reads its result in one step; this one splits the
    step in two with psycopg's generators (``copy_end`` without its final read). Between the
    two nothing else may use the connection.
    """

    def __init__(self, cursor: Any) -> None:
        super().__init__(cursor)
        self._sent = False

    def finish(self, exc: BaseException | None = None) -> None:
        if exc is not None:
            super().finish(exc)
            return
        self.connection.wait(_copy_end_sent(self._pgconn))
        self._sent = True

    def ready(self) -> bool:
        """Whether ``wait`` would return at once: the server has answered the copy."""
        if not self._sent:
            return True
        with connection.wrap_database_errors:
            self._pgconn.consume_input()
        return not self._pgconn.is_busy()

    def wait(self) -> None:
        if not self._sent:
            return
        results = self.connection.wait(fetch_many(self._pgconn))
        self._sent = False  # only once read: a wait cut short (a time limit) is waited again
        with connection.wrap_database_errors:
            for result in results:
                if result.status != pq.ExecStatus.COMMAND_OK:
                    raise error_from_result(result, encoding=self.connection.info.encoding)


def _copy_end_sent(pgconn: Any) -> Generator[Wait, Any, None]:
    while pgconn.put_copy_end(None) == 0:
        yield Wait.W
    while pgconn.flush() != 0:
        yield Wait.W


def bulk_set(
    model: type[models.Model], fields: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> None:
    """Set ``fields`` of existing rows; each row is a primary key, then values in ``fields`` order.

    Django's ``bulk_update`` builds a CASE expression per field and row, which took a tenth
    of the time of an upload's batch just to mark its hundred items done. On PostgreSQL one
    statement sets every row from one array per column (``unnest``): 11 ms for a batch's 400
    items, against 17-20 ms with a statement per row (``executemany``), which the worker
    waited for.
    """
    if not rows:
        return
    meta = model._meta
    quote = connection.ops.quote_name
    columns = [_field(model, name) for name in fields]
    pk = meta.pk.column if meta.pk is not None else None
    assert pk is not None
    key = quote(pk)
    table = quote(meta.db_table)
    if connection.vendor != "postgresql":
        json_columns = [i for i, f in enumerate(columns) if isinstance(f, models.JSONField)]
        values = [list(row[1:]) for row in rows]
        for row in values:
            for i in json_columns:
                if row[i] is not None:
                    row[i] = jsonb_text(row[i])
        sets = ", ".join(f"{quote(field.column)} = %s" for field in columns)
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {table} SET {sets} WHERE {key} = %s",
                [(*row, row_key[0]) for row, row_key in zip(values, rows, strict=True)],
            )
        return
    params, arrays, read = _unnest((meta.pk.name, *fields), model, rows, jsonb_text)
    sets = ", ".join(f"{quote(field.column)} = {read[i + 1]}" for i, field in enumerate(columns))
    _execute_binary(
        f"UPDATE {table} AS t SET {sets} FROM unnest({params}) AS v({_aliases(arrays)}) "
        f"WHERE t.{key} = v.c0",
        arrays,
    )


def bulk_upsert(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Sequence[tuple[Any, ...]],
    *,
    unique: Sequence[str],
    replace: Sequence[str] = (),
    increment: Sequence[str] = (),
    dumps: Callable[[Any], str] = jsonb_text,
) -> None:
    """Insert ``rows`` (tuples in ``fields`` order); where a row of the ``unique`` columns
    exists, set its ``replace`` fields to the new values and add the new values to its
    ``increment`` fields (which then need not be read first). The keys must be distinct.

    On PostgreSQL one statement takes every row from one array per column (``unnest``), as
    ``bulk_set`` does: a statement of a placeholder per value cost more to build and for
    psycopg to parse than the rest of a statistics update. SQLite takes ``VALUES`` lists.
    """
    if not rows:
        return
    meta = model._meta
    quote = connection.ops.quote_name
    table = quote(meta.db_table)

    def quoted(of: Sequence[str]) -> list[str]:
        return [quote(_field(model, name).column) for name in of]

    columns = [_field(model, name) for name in fields]
    names = quoted(fields)
    sets = [f"{c} = EXCLUDED.{c}" for c in quoted(replace)]
    sets += [f"{c} = {table}.{c} + EXCLUDED.{c}" for c in quoted(increment)]
    conflict = f"ON CONFLICT ({', '.join(quoted(unique))}) DO UPDATE SET {', '.join(sets)}"
    if connection.vendor != "postgresql":
        prepared = [
            i
            for i, field in enumerate(columns)
            if isinstance(field, (models.JSONField, models.DecimalField, models.DateTimeField))
        ]
        values = [list(row) for row in rows]
        for row in values:
            for i in prepared:
                row[i] = columns[i].get_db_prep_save(row[i], connection)
        one = "(" + ", ".join(["%s"] * len(columns)) + ")"
        with connection.cursor() as cursor:
            for start in range(0, len(values), 500):
                batch = values[start : start + 500]
                cursor.execute(
                    f"INSERT INTO {table} ({', '.join(names)}) "
                    f"VALUES {', '.join([one] * len(batch))} {conflict}",
                    [value for row in batch for value in row],
                )
        return
    params, arrays, selected = _unnest(tuple(fields), model, rows, dumps)
    _execute_binary(
        f"INSERT INTO {table} ({', '.join(names)}) SELECT {', '.join(selected)} "
        f"FROM unnest({params}) AS v({_aliases(arrays)}) {conflict}",
        arrays,
    )


def _unnest(
    fields: tuple[str, ...],
    model: type[models.Model],
    rows: Sequence[Sequence[Any]],
    dumps: Callable[[Any], str],
) -> tuple[str, list[list[Any]], list[str]]:
    """``rows`` as one array per column for PostgreSQL's ``unnest``: the parameters
    (``%b::int8[], …``), the arrays, and each column's value as the statement reads it from
    ``unnest``'s output ``c0, c1, …``.

    An array holds one type: a decimal column's values, ints and Decimals alike, go through
    its field, and JSON goes as text (``dumps``), cast back in the value (``c3::jsonb``).
    """
    _, types, json_places = _copy_statement(model, fields)
    arrays = [list(column) for column in zip(*rows, strict=True)]
    for i, name in enumerate(fields):
        field = _field(model, name)
        if i in json_places:
            arrays[i] = [None if v is None else dumps(v) for v in arrays[i]]
        elif isinstance(field, models.DecimalField):
            arrays[i] = [None if v is None else field.to_python(v) for v in arrays[i]]
    params = ", ".join(
        f"%b::{'text' if i in json_places else kind}[]" for i, kind in enumerate(types)
    )
    values = [f"c{i}::jsonb" if i in json_places else f"c{i}" for i in range(len(fields))]
    return params, arrays, values


def _aliases(arrays: Sequence[Any]) -> str:
    return ", ".join(f"c{i}" for i in range(len(arrays)))


def _execute_binary(sql: str, params: Sequence[Any]) -> None:
    """``sql`` with ``params`` bound by the server, in binary, on Django's connection.

    Django's cursor quotes parameters into the text of the statement, and each string of a
    text array went through a regular expression: for a statistics update's arrays that cost
    more than the rest of the statement.
    """
    with (
        connection.wrap_database_errors,
        connection.cursor() as cursor,
        psycopg.Cursor(cursor.connection) as raw,
    ):
        raw.execute(sql, params)


def _ids_reserve(model: type[models.Model], count: int) -> list[int]:
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
            [table, count],
        )
        return [row[0] for row in cursor.fetchall()]


def _field(model: type[models.Model], name: str) -> Any:
    """The model field behind a column name such as ``game_id`` or ``score``."""
    meta = model._meta
    for field in meta.concrete_fields:
        if name in (field.name, field.attname):
            return field
    raise LookupError(f"{meta.label} has no field {name}")
