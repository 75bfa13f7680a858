"""Scores as exact numbers, and as JSON writes them (docs/format.md "Numbers", RULES §7).

A score is exact: an int where it can be, a ``Fraction`` where a multiplier such as 3/2
makes it so (7.5 is a score), or the binary float that holds such a fraction exactly. Every
game family scores with these, and every report writes them with ``plain``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

Number = int | Fraction
#: A computed score: exact always; a float only where it is an exact binary fraction (7.5).
Score = int | float | Fraction


def exact(value: int | float) -> Number:
    """A JSON number as an exact value: ``1.5`` is exactly 3/2 (RULES §7).

    Integral values stay ints, so the common case adds ints, not fractions.
    """
    if isinstance(value, int):
        return value
    fraction = Fraction(repr(value))
    return fraction.numerator if fraction.denominator == 1 else fraction


def binary_float(value: Fraction) -> Score:
    """A binary fraction (15/2) as the float that holds it exactly, compared with claims at C
    speed; past a float's range (a sheet may claim a taken of 10**400) it stays a fraction."""
    try:
        return float(value)
    except OverflowError:
        return value


def plain(value: Score) -> int | float:
    """A score for JSON: an int when whole, else the nearest float (7.5 stays 7.5), or past a
    float's range the nearest int, since JSON has nothing nearer."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return value.numerator
        try:
            return float(value)
        except OverflowError:
            return round(value)
    return value


_PLAIN_TYPES: Final = frozenset({int, float})


def plain_list(values: list[Score]) -> list[int | float]:
    """``plain`` of each score, as a new list.

    A report holds hundreds of score lists and nearly all are ints and floats already: one
    type test at C speed then replaces a call per score (``isinstance(x, Fraction)`` is an
    abstract-class check, slow when it fails).
    """
    if _PLAIN_TYPES.issuperset(map(type, values)):
        return list(values)  # type: ignore[arg-type]
    return [plain(value) for value in values]
