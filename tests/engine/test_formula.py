"""Scoring by formula (``replay/tricks/formula.py``, docs/rules.md §7): the reader,
its exact arithmetic, its located mistakes, and formulas that restate a preset's table."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import verify
from replay.simulate import simulate_game
from replay.tricks.formula import FormulaError, parse_formula
from replay.tricks.rulesets import resolve_ruleset


@pytest.mark.parametrize(
    ("text", "bid", "taken", "cards", "score"),
    [
        ("10 + bid^2", 3, 3, 5, 19),
        ("-5*d*(d+1)/2", 3, 1, 5, -15),
        ("-5*d*(d+1)/2", 0, 3, 5, -30),
        ("-2^2", 0, 0, 1, -4),  # the power binds tighter than the minus
        ("2^3^2", 0, 0, 1, 512),  # and to the right
        ("10 - 4 - 3", 0, 0, 1, 3),  # the others to the left
        ("1 + 2 * 3", 0, 0, 1, 7),
        ("(1 + 2) * 3", 0, 0, 1, 9),
        ("max(bid, taken, 1) - min(bid, taken) + abs(bid - taken)", 2, 5, 6, 6),
        ("cards * 10 / 4", 0, 0, 3, Fraction(15, 2)),
        ("bid / 3 + taken / 6", 1, 1, 1, Fraction(1, 2)),
        ("4 / 2", 0, 0, 1, 2),  # an int where the value is whole
        ("  +bid  ", 4, 0, 5, 4),
    ],
)
def test_a_formula_scores_exactly(
    text: str, bid: int, taken: int, cards: int, score: int | Fraction
) -> None:
    value = parse_formula(text)(bid, taken, cards)
    assert value == score
    assert type(value) is type(score)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("10 +", "unexpected end of the formula at position 5"),
        (
            "10 + bod",
            "unknown name 'bod' (known: bid, taken, cards, d, min, max, abs) at position 6",
        ),
        ("__import__('os')", "unknown name '__import__'"),
        ("bid / taken", "a divisor must be a constant at position 5"),
        ("1 / (2 - 2)", "division by zero at position 3"),
        ("bid ^ bid", "an exponent must be a whole constant from 0 to 32 at position 5"),
        ("2 ^ 33", "an exponent must be a whole constant from 0 to 32 at position 3"),
        ("2 ^ (1/2)", "an exponent must be a whole constant"),
        ("(1", "expected ')', found the end at position 3"),
        ("1)", "unexpected ')' at position 2"),
        ("abs(1, 2)", "abs takes one argument at position 1"),
        ("min()", "unexpected ')' at position 5"),
        ("1.5", "unexpected '.' at position 2"),
        ("3 # 4", "unexpected '#' at position 3"),
        ("", "unexpected end of the formula at position 1"),
        ("(" * 40 + "1" + ")" * 40, "the formula nests too deep"),
        ("1+" * 300 + "1", "at most 500 characters"),
    ],
)
def test_a_formula_that_does_not_read_says_where(text: str, message: str) -> None:
    with pytest.raises(FormulaError) as error:
        parse_formula(text)
    assert message in str(error.value)


def test_a_bad_formula_is_a_ruleset_finding_at_its_option() -> None:
    record = {
        "format": "raspis/1",
        "ruleset": {
            "preset": "classic",
            "options": {"scoring": "formula", "formula_made": "bid", "formula_missed": "d *"},
        },
        "players": ["Anna", "Boris", "Vera"],
        "deals": [],
    }
    report = verify(record).to_dict()
    assert report["verdict"] == "malformed"
    assert [(f["code"], f["path"], f["message"]) for f in report["findings"]] == [
        (
            "record.ruleset",
            "/ruleset/options/formula_missed",
            "option formula_missed: unexpected end of the formula at position 4",
        )
    ]


def test_fractional_formula_scores_add_up_exactly() -> None:
    record = {
        "format": "raspis/1",
        "ruleset": {
            "preset": "oh_hell",
            "options": {
                "scoring": "formula",
                "formula_made": "bid/3",
                "formula_missed": "-d/3",
                "last_bidder_restriction": False,
            },
        },
        "players": ["Anna", "Boris", "Vera"],
        "deals": [{"cards": 1, "bids": [1, 0, 0], "taken": [1, 0, 0]}] * 3,
    }
    report = verify(record)
    assert report.findings == []
    assert report.deals[0].scores == [Fraction(1, 3), 0, 0]
    assert report.totals == [1, 0, 0]  # 1/3 three times, not 0.9999…


#: A formula for each preset table that has no condition a formula cannot say.
STANDARD = {
    "formula_made": "10*bid + 5*max(0, 1 - bid)",
    "formula_missed": "taken*min(1, max(0, taken - bid)) - 10*d*min(1, max(0, bid - taken))",
}
OH_HELL = {"formula_made": "taken + 10", "formula_missed": "taken"}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([("detsky", 3, STANDARD), ("rotating", 4, STANDARD), ("oh_hell", 4, OH_HELL)]),
    st.integers(min_value=0, max_value=2**32),
)
def test_a_formula_equal_to_the_preset_table_scores_every_game_alike(
    case: tuple[str, int, dict[str, str]], seed: int
) -> None:
    """The simulator scores with the formula; the same record must verify, with the same
    scores, under the preset's own table (the kind and blind multipliers apply to both)."""
    preset, players, formulas = case
    formula: dict[str, Any] = {"preset": preset, "options": {"scoring": "formula", **formulas}}
    record = simulate_game(formula, players, seed)
    by_formula = verify(record).to_dict()
    assert by_formula["verdict"] == "verified", by_formula["findings"][:3]
    record["ruleset"] = preset
    by_table = verify(record).to_dict()
    assert by_table["verdict"] == "verified", by_table["findings"][:3]
    assert by_table["deals"] == by_formula["deals"]


def test_a_ruleset_with_formulas_equals_the_same_ruleset_read_again() -> None:
    value = {"preset": "classic", "options": {"scoring": "formula", **STANDARD}}
    first, second = resolve_ruleset(value)[0], resolve_ruleset(value)[0]
    assert first is not None and first == second
    assert first.formula_made == parse_formula(STANDARD["formula_made"])
