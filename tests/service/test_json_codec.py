"""The fast JSON reader and writer give the reference reader's and writer's answers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import record_json
from verification.json_codec import json_text, record_loads

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
    | st.sampled_from(["\ud800", "\udfff", "\x00", "\u2028", "sim-4-10175344905288772045"])
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


def read(reader: Any, text: str) -> tuple[str, Any]:
    """What ``reader`` makes of ``text``: its value, spelt so that 1 and 1.0 differ, or the
    kind of its refusal (every refusal is a ``record.json`` finding, whatever its words)."""
    try:
        return "value", _typed(reader(text))
    except RecursionError:
        return "refused", "too deep"
    except ValueError:
        return "refused", "not JSON"


def _typed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}, list(value)
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return type(value).__name__, repr(value)


@settings(max_examples=400)
@given(VALUES, st.booleans(), st.sampled_from([None, 0, 2]))
def test_records_read_as_the_reference_reader_reads_them(
    value: Any, ascii_only: bool, indent: int | None
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    assert read(record_loads, text) == read(record_json, text)


@settings(max_examples=200)
@given(VALUES, st.integers(min_value=0, max_value=200))
def test_a_broken_text_is_refused_as_the_reference_reader_refuses_it(value: Any, cut: int) -> None:
    text = json.dumps(value)
    broken = text[: cut % (len(text) + 1)]
    assert read(record_loads, broken) == read(record_json, broken)


@pytest.mark.parametrize(
    "text",
    [
        '{"bids": [12345678901234567890123, 0]}',  # orjson would read a float
        '{"bids": [-9223372036854775809]}',
        '{"bid":\n 18446744073709551616}',
        "12345678901234567890123",
        "\ufeff12345678901234567890123",
        '{"id": "a-12345678901234567890123"}',  # in a string: the fast reader keeps it
        '{"x": 1e400}',  # a float past a double: the reference reader says infinity
        '{"name": "\\ud800"}',
        '{"v": NaN}',
        "\ufeff{}",
        "[" * 1100 + "]" * 1100,
        "[" * 100_000 + "]" * 100_000,
    ],
)
def test_what_orjson_reads_otherwise_goes_to_the_reference_reader(text: str) -> None:
    assert read(record_loads, text) == read(record_json, text)


@settings(max_examples=300)
@given(VALUES)
def test_json_text_is_json_that_reads_back_whole(value: Any) -> None:
    text = json_text(value)
    assert _typed(json.loads(text)) == _typed(value)
    text.encode("utf-8")  # a text column takes it
