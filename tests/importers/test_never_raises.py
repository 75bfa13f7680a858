"""Errors as data: whatever the bytes, an importer answers with records or findings."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from importers import FORMATS, convert

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)

#: Names that an OhHellWeb file holds, so that the generated objects reach its deeper reads.
OHW_KEYS = st.sampled_from(
    ["mode", "options", "D", "teams", "rounds", "trumps", "leaders", "winners", "claims",
     "players", "name", "index", "team", "hands", "bids", "takens", "scores", "score", "plays",
     "num", "suit", "dealer", "handSize", "isOver", "kicked", "id"]
)  # fmt: skip
ohw_like = st.recursive(
    st.none() | st.booleans() | st.integers(-1, 14) | st.just("Oh Hell"),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(OHW_KEYS, inner, max_size=6),
    max_leaves=40,
)


def answered(source: str, data: bytes, name: str) -> None:
    for game in convert(source, data, name):
        assert game.record is not None or game.findings
        if game.record is not None:
            json.dumps(game.record)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300), st.sampled_from(sorted(FORMATS)))
def test_any_bytes_are_answered(data: bytes, source: str) -> None:
    answered(source, data, "file")


@settings(max_examples=100, deadline=None)
@given(ohw_like)
def test_any_json_is_answered_as_an_ohw_game(value: Any) -> None:
    answered("ohw", json.dumps(value).encode(), "game.ohw")


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.lists(st.text(max_size=6) | st.integers(-2, 60).map(str), max_size=8), max_size=8)
)
def test_any_csv_rows_are_answered_as_a_sheet(rows: list[list[str]]) -> None:
    text = "ruleset,classic\ncards,Anna bid,Anna taken,Boris bid,Boris taken\n"
    text += "\n".join(",".join(row) for row in rows)
    answered("sheet", text.encode(), "sheet.csv")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-2, 70), max_size=40), st.integers(2, 8))
def test_any_actions_are_answered_as_an_openspiel_state(actions: list[int], players: int) -> None:
    text = f"[Meta]\nVersion: 1\n[Game]\noh_hell(players={players})\n[State]\n"
    text += "".join(f"{a}\n" for a in actions)
    answered("openspiel", text.encode(), "state.txt")
