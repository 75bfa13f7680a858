"""Bulk writes to the database: PostgreSQL's ``COPY`` and array statements, and ``Writes``,
which lets PostgreSQL take rows in while Python goes on working.

Ingest and the statistics write thousands of rows at once, built as plain tuples: they go in
by a binary ``COPY`` (SQLite, for a checkout, takes ``bulk_create``), and updates by one
statement of one array per column. Text that PostgreSQL refuses — a NUL character or a lone
surrogate, both of which a JSON record may legally contain in a player's name — is cleaned
here, at the one place where values leave Python, so that no record can make the service
fail.

Only psycopg's public API is used: ``Copy`` with a ``Writer`` of its own to build a ``COPY``'s
data, ``Cursor.copy`` to send it, and the psycopg connection behind Django's
(``connection.connection``) for what Django's cursor cannot do.
"""

from __future__ import annotations

import functools
import gc
import json
import sys
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import psycopg
from django.db import connection, models
from psycopg.abc import Buffer
from psycopg.copy import Copy, Writer
from psycopg.types.json import Jsonb


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
    statement, data = _copy_data(model, fields, rows, dumps=dumps)
    with connection.wrap_database_errors:
        _copy_send(_psycopg(), statement, data)


def _created(
    model: type[models.Model], fields: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> list[int]:
    """``rows`` inserted by Django's ``bulk_create``; their primary keys, in row order."""
    objects = [model(**dict(zip(fields, row, strict=True))) for row in rows]
    model.objects.bulk_create(objects, batch_size=500)  # type: ignore[attr-defined]
    return [obj.pk for obj in objects]


#: Seconds between the interpreter's thread switches while ``Writes`` sends a ``COPY``.
SWITCH_INTERVAL = 0.0005


class Writes:
    """Bulk inserts that PostgreSQL takes in while Python goes on verifying records.

    An upload's batch is one transaction on one connection, so its inserts cannot run side by
    side; but none of them returns anything the batch waits for (their ids are drawn from the
    sequences beforehand). So ``insert`` queues the rows, and the queue's first insert is
    sent as a ``COPY`` by a thread of its own while the caller goes on; ``advance``, called
    between two records, collects that ``COPY`` once it is done, never blocking, and sends the
    next. Before the connection is used for anything else, ``finish`` waits for all of them,
    and an error of any of them is raised there or by the next ``advance``. Used as a context
    manager, it finishes on the way out, and on an exception drops what is queued and waits
    for the ``COPY`` in flight, so that the connection is usable for the rollback. Elsewhere
    than on PostgreSQL every insert goes in at once.

    The thread is safe because it only ever touches the psycopg connection, never Django's
    wrapper of it, which stays the caller's alone (Django refuses a connection shared across
    threads), and only through a cursor of its own: psycopg connections are thread-safe,
    each operation holding the connection's lock (``Cursor.copy`` through the whole
    ``COPY``), so a query of the caller's while a ``COPY`` is in flight would wait for it,
    never interleave with it. The caller builds each ``COPY``'s data itself and hands the
    thread bytes that nothing else holds. Between two ``finish`` calls one thread sends them
    in order; ``finish`` ends it.

    With the server's part of the inserts done while Python verifies, an upload's worker
    spends far less of its time waiting (``bench/ingest.py``). That holds only if the thread
    gets the interpreter soon each time the socket takes more data: at Python's default of
    a switch every 5 ms, the server sat waiting for rows and the caller then waited for the
    backlog, so while the thread runs, the interpreter switches every ``SWITCH_INTERVAL``.
    """

    def __init__(self) -> None:
        self._queue: deque[tuple[type[models.Model], Sequence[str], Sequence[tuple[Any, ...]]]]
        self._queue = deque()
        self._sender: ThreadPoolExecutor | None = None
        self._sent: Future[None] | None = None
        self._ids: dict[type[models.Model], deque[int]] = {}
        self._queues = connection.vendor == "postgresql"
        self._interval = sys.getswitchinterval()

    def __enter__(self) -> Writes:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            self.finish()
            return
        self._queue.clear()
        self._sent = None  # its error, if any, is not the first one
        self._stop()

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
        """Send the next insert if the one before is in; never waits for the server."""
        if self._sent is not None:
            if not self._sent.done():
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
            statement, data = _copy_data(model, fields, rows)
            if self._sender is None:
                self._sender = ThreadPoolExecutor(max_workers=1, thread_name_prefix="copy")
                self._interval = sys.getswitchinterval()
                sys.setswitchinterval(SWITCH_INTERVAL)
            self._sent = self._sender.submit(_copy_send, _psycopg(), statement, data)

    def finish(self) -> None:
        """Wait until every queued insert is in; an error of any of them is raised here."""
        while self._sent is not None or self._queue:
            self._collect()
            self.advance()
        self._stop()

    def _collect(self) -> None:
        sent = self._sent
        if sent is None:
            return
        # Cut short (a time limit), the COPY is still there to wait for again.
        error = sent.exception()
        self._sent = None
        if error is not None:
            with connection.wrap_database_errors:
                raise error

    def _stop(self) -> None:
        """End the thread, once the ``COPY`` in flight is done."""
        if self._sender is not None:
            self._sender.shutdown()
            self._sender = None
            sys.setswitchinterval(self._interval)


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


def _psycopg() -> psycopg.Connection[Any]:
    """The psycopg connection behind Django's, for a binary ``COPY`` or parameters bound by
    the server, which Django's cursor does not offer."""
    connection.ensure_connection()
    raw = connection.connection
    assert raw is not None
    return raw


class _Kept(Writer):
    """A ``COPY``'s data, kept to be sent later (``_copy_send``) rather than sent as made."""

    def __init__(self) -> None:
        self.chunks: list[Buffer] = []

    def write(self, data: Buffer) -> None:
        self.chunks.append(data)


def _copy_data(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Sequence[tuple[Any, ...]],
    *,
    dumps: Callable[[Any], str] = jsonb_text,
) -> tuple[str, list[Buffer]]:
    """The ``COPY`` of ``rows`` into ``model``'s table, and its data in the binary format.

    The binary format takes each value as it is held: in text, psycopg would spell every
    number out and scan every text for characters to escape (records and reports run to
    tens of kilobytes), which took twice as many instructions for an upload's rows. Values
    psycopg cannot adapt fail here, in the caller's thread.
    """
    statement, types, json_columns = _copy_statement(model, tuple(fields))
    kept = _Kept()
    with _psycopg().cursor() as cursor, Copy(cursor, binary=True, writer=kept) as copy:
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
    return statement, kept.chunks


def _copy_send(raw: psycopg.Connection[Any], statement: str, data: Sequence[Buffer]) -> None:
    """Run ``statement`` with ``data`` made by ``_copy_data``; any error the server finds in
    the rows is raised here, as the ``COPY`` ends."""
    with raw.cursor() as cursor, cursor.copy(statement) as copy:
        copy.write(b"".join(data))  # one call: the thread needs the interpreter less often


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


def bulk_set(
    model: type[models.Model], fields: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> None:
    """Set ``fields`` of existing rows; each row is a primary key, then values in ``fields`` order.

    Django's ``bulk_update`` builds a CASE expression per field and row, which took a tenth
    of the time of an upload's batch just to mark its hundred items done. On PostgreSQL one
    statement sets every row from one array per column (``unnest``): for a batch's 400 items
    that took little more than half as long as a statement per row (``executemany``), which
    the worker waited for.
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
    with connection.wrap_database_errors, psycopg.Cursor(_psycopg()) as cursor:
        cursor.execute(sql, params)


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
