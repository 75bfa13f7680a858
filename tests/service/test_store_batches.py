"""A batch's chunks only queue inserts: what they look up is read once, at its start."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from games.models import Game, Player
from verification.services import store
from verification.services.store import Entry, records_store

pytestmark = pytest.mark.django_db


def copies(record: Callable[..., dict[str, Any]], start: int, stop: int) -> list[Entry]:
    """Distinct records (their own external ids) of the same four players."""
    entries = []
    for k in range(start, stop):
        value = record(k % 4)
        value["meta"]["external_id"] = f"copy-{k}"
        entries.append(Entry(json.dumps(value), value))
    return entries


def test_a_batch_looks_up_once_however_many_chunks_it_has(
    user: Any, record: Callable[..., dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A query between two chunks would wait for every row queued before it."""
    monkeypatch.setattr(store, "WRITE_CHUNK", 2)
    records_store(entries=copies(record, 0, 1), uploaded_by=user, visibility="public")

    def selects(entries: list[Entry]) -> int:
        with CaptureQueriesContext(connection) as queries:
            outcomes = records_store(entries=entries, uploaded_by=user, visibility="public")
        assert {o.kind for o in outcomes} == {"stored"}
        return sum(q["sql"].lstrip().upper().startswith("SELECT") for q in queries)

    assert selects(copies(record, 1, 3)) == selects(copies(record, 3, 11))  # one chunk, four
    assert Game.objects.count() == 11
    assert Player.objects.count() == 4


def test_new_players_are_created_once_and_a_malformed_record_creates_none(
    user: Any, record: Callable[..., dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "WRITE_CHUNK", 2)
    broken = {"format": "raspis/1", "ruleset": "nope", "players": ["Zoe", "Yan", "Xu"]}
    entries = [*copies(record, 0, 5), Entry(json.dumps(broken), broken)]
    outcomes = records_store(entries=entries, uploaded_by=user, visibility="public")
    assert [o.kind for o in outcomes] == ["stored"] * 5 + ["rejected"]
    names = sorted(Player.objects.values_list("name", flat=True))
    assert names == sorted(record(0)["players"])


@given(count=st.integers(min_value=0, max_value=2000), chunk=st.integers(min_value=1, max_value=40))
def test_chunks_cover_the_batch_and_shrink_towards_its_end(count: int, chunk: int) -> None:
    """The worker waits at a batch's end for the last chunk's rows: it is the smallest."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "WRITE_CHUNK", chunk)
        sizes = store._chunk_sizes(count)
    assert sum(sizes) == count
    assert all(1 <= size <= chunk for size in sizes)
    assert sizes[1:] == sorted(sizes[1:], reverse=True)  # the first takes what is left
    if sizes:
        assert sizes[-1] <= store.TAIL_LAST
    if count > 100:
        assert sizes.count(chunk) >= count // chunk - 5  # nearly all full-size


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"meta": {"external_id": "a-1"}, "players": ["A", "B"]}', "a-1"),
        ('{"meta" : {"external_id" :\n 17}}', 17),
        ('{"players" : ["A", "\\u0042"], "deals": []}', ["A", "B"]),
        ('{"meta": {"external_id": "a"}, "x": {"external_id": "b"}}', "a"),  # the first
    ],
)
def test_a_member_is_read_from_the_text_alone(text: str, value: Any) -> None:
    name = "external_id" if "external_id" in text else "players"
    assert store._member(text, name) == value


@pytest.mark.parametrize(
    "text",
    [
        '{"meta": {}}',  # absent
        '{"meta": {"external\\u005fid": "a"}}',  # spelled with escapes
        '{"note": "the \\"external_id\\" of it", "meta": {}}',  # inside a string
        '{"meta": {"external_id": "unterminated}',  # no value that reads
    ],
)
def test_a_member_the_text_alone_cannot_tell_is_none(text: str) -> None:
    assert store._member(text, "external_id") is None
