"""The record parser and the verifier never raise on bad input (docs/format.md conventions)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from replay import Verdict, split_documents, verify
from replay.simulate import simulate_game

CARDS = st.sampled_from(["AS", "7S", "7S+", "7S-H", "10H", "ТД", "X1", "9♠", "zz", "", "7S+Q"])
JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 40),
    st.floats(),  # NaN and infinities too: Python's JSON reader makes them
    st.text(max_size=8),
    CARDS,
)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)
KEYS = ["format", "ruleset", "players", "first_dealer", "meta", "deals", "totals"]
DEAL_KEYS = [
    "cards",
    "kind",
    "dealer",
    "hands",
    "trump_card",
    "trump",
    "declarer",
    "calls",
    "bids",
    "tricks",
    "taken",
    "scores",
    "running",
]


def _record_like() -> st.SearchStrategy[dict[str, Any]]:
    deal = st.fixed_dictionaries({}, optional={k: JSON for k in DEAL_KEYS})
    return st.fixed_dictionaries(
        {
            "format": st.sampled_from(["raspis/1", "raspis/2"]),
            "ruleset": st.sampled_from(["classic", "detsky", "joker54", "podkidnoy", "nope"])
            | JSON,
            "players": st.lists(st.sampled_from(["A", "B", "C", "D", "a "]), max_size=6) | JSON,
        },
        optional={"deals": st.lists(deal, max_size=3), "totals": JSON, "first_dealer": JSON},
    )


def _report_is_well_formed(report_dict: dict[str, Any]) -> None:
    assert report_dict["verdict"] in {v.value for v in Verdict}
    json.dumps(report_dict, allow_nan=False)  # strict JSON, NaN drawn into the record or not
    if report_dict["verdict"] == "malformed":
        assert report_dict["deals"] == [] and report_dict["totals"] is None


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_any_json_value_gets_a_report_and_never_an_exception(value: Any) -> None:
    _report_is_well_formed(verify(value).to_dict())


@settings(max_examples=400, deadline=None)
@given(_record_like())
def test_record_shaped_noise_gets_a_report_and_never_an_exception(value: dict[str, Any]) -> None:
    _report_is_well_formed(verify(value).to_dict())


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_split_into_documents_without_raising(data: bytes) -> None:
    for document in split_documents(data, "upload.jsonl"):
        assert (document.error is None) == isinstance(document.value, dict)
        _report_is_well_formed(verify(document.value).to_dict())


def test_a_bad_line_in_json_lines_gets_its_own_record_json_finding() -> None:
    text = '{"format": "raspis/1"}\nnot json\n[1]\n{"format": "raspis/1"}\n'
    documents = split_documents(text)
    assert [d.label for d in documents] == ["line 1", "line 2", "line 3", "line 4"]
    assert [d.error.code if d.error else None for d in documents] == [
        None,
        "record.json",
        "record.json",
        None,
    ]


def test_a_printed_joker_led_where_it_is_no_joker_is_an_unknown_card_not_a_crash() -> None:
    record = {
        "format": "raspis/1",
        "ruleset": "classic",
        "players": ["A", "B", "C"],
        "deals": [
            {
                "cards": 1,
                "hands": [["X1"], ["AS"], ["KS"]],
                "trump_card": "9D",
                "bids": [0, 1, 1],
                "tricks": [["X1", "AS", "KS"]],
            }
        ],
    }
    report = verify(record)
    assert report.verdict is Verdict.ILLEGAL
    assert [f.code for f in report.findings][:1] == ["deal.unknown_card"]
    assert report.deals[0].taken == [0, 1, 0]


def test_nan_and_infinite_scores_are_schema_findings_not_a_crash() -> None:
    """``values == values`` let a NaN through (a list compares its own items by identity)."""
    for field, value in (("scores", float("nan")), ("running", float("inf")), ("totals", -1e999)):
        record = simulate_game("classic", 4, 5)
        if field == "totals":
            record["totals"] = [value, 0, 0, 0]
        else:
            record["deals"][2][field][1] = value
        report = verify(record)
        assert report.verdict is Verdict.MALFORMED
        (finding,) = report.findings
        assert finding.path == ("/totals/0" if field == "totals" else f"/deals/2/{field}/1")
        quoted = json.loads(json.dumps(report.to_dict(), allow_nan=False))["findings"][0]
        assert quoted["actual"] == {"scores": "NaN", "running": "Infinity"}.get(field, "-Infinity")
