"""Engine values as the database's columns take them (``verification.services.rows``)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from verification.services.rows import SCORE_MAX, score_value


@pytest.mark.parametrize(
    ("score", "stored"),
    [
        (7, 7),
        (2.5, Decimal("2.5000")),
        (-0.25, Decimal("-0.2500")),
        (0.1, Decimal("0.1000")),
        # The exact value, rounded half to even as the statistics round (``score_units``):
        # the float 0.00005 lies just above the tie, which its repr would round down.
        (0.00005, Decimal("0.0001")),
        (Fraction(1, 20000), Decimal("0.0000")),
        (Fraction(3, 20000), Decimal("0.0002")),
        (Fraction(1, 3), Decimal("0.3333")),
        (Fraction(-2, 3), Decimal("-0.6667")),
        (1e31, SCORE_MAX),  # past 28 digits: held to the column before it is rounded
        (-1e31, -SCORE_MAX),
        (Fraction(10**31, 3), SCORE_MAX),
    ],
)
def test_scores_are_rounded_to_four_places_within_the_columns_range(
    score: int | float | Fraction, stored: int | Decimal
) -> None:
    assert score_value(score) == stored
    assert score_value(score) == stored  # a float's second time comes from the cache
    assert type(score_value(score)) is type(stored)
