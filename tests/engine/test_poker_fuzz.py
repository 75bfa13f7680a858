"""The poker reader and replay never raise: any JSON, and golden records with any value put
anywhere, get a report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import verify

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "poker"
RECORDS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(GOLDEN.glob("*.record.json"))]

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 60)
    | st.sampled_from(
        ["", "??", "X", "X2", "AS", "fold", "raise", "call", "exchange", "club_stud", "1S"]
    )
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["seat", "action", "amount", "cards", "new"]), inner, max_size=4
        )
    ),
    max_leaves=12,
)


def places(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            out += places(item, (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += places(item, (*at, i))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RECORDS), st.data(), values)
def test_a_golden_record_with_any_value_anywhere_gets_a_report(
    record: Any, data: st.DataObject, value: Any
) -> None:
    changed = json.loads(json.dumps(record))
    at = data.draw(st.sampled_from(places(changed)[1:]))
    target = changed
    for key in at[:-1]:
        target = target[key]
    target[at[-1]] = value
    report = verify(changed).to_dict()
    assert report["verdict"] in {"malformed", "illegal", "mismatch", "verified"}
    json.dumps(report)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["ruleset", "seats", "hands", "stacks", "first_dealer", "meta"]), values
    )
)
def test_any_object_of_the_poker_format_gets_a_report(obj: dict[str, Any]) -> None:
    report = verify({"format": "raspis-poker/1", **obj}).to_dict()
    assert report["verdict"] == "malformed" or report["hands"] is not None
