"""The pure part: a game's counters, settlement and head-to-head rows, without a database."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from stats.contributions import (
    SeatResult,
    add,
    game_contribution,
    pairs,
    scaled,
    settlement,
)
from verification.services.rows import point_value

D = Decimal


def test_a_single_winner_collects_each_losers_difference() -> None:
    # Totals 0, −8, 10 at 1 a point: Anna pays 10, Boris 18, Vera gets 28.
    assert settlement([D(0), D(-8), D(10)], Fraction(1)) == [-100_000, -180_000, 280_000]


def test_shared_winners_split_what_the_losers_pay() -> None:
    # 15, 15, −9 at 2 a point: Vera pays 48, each winner gets 24.
    assert settlement([D(15), D(15), D(-9)], Fraction(2)) == [240_000, 240_000, -480_000]
    # Three ways: 10 paid, 3.3333 each (rounded to 1/10,000).
    assert settlement([D(5), D(5), D(5), D(-5)], Fraction(1)) == [33_333, 33_333, 33_333, -100_000]


def test_a_point_value_is_a_positive_number() -> None:
    assert point_value({"point_value": 0.5}) == "0.5"
    assert point_value({"point_value": " 2 "}) == "2"
    for bad in (True, 0, -1, "many", None, [1], float("nan")):
        assert point_value({"point_value": bad}) is None
    assert point_value("not a dict") is None


def test_scores_are_kept_exactly_in_ten_thousandths() -> None:
    assert scaled(7) == 70_000
    assert scaled(7.5) == 75_000
    assert scaled(Fraction(1, 3)) == 3_333
    assert scaled(D("-2.25")) == -22_500


def test_adding_and_subtracting_a_contribution_leaves_nothing() -> None:
    total = {"games": 2, "wins": 1}
    add(total, {"games": 1, "diff:0": 3})
    assert total == {"games": 3, "wins": 1, "diff:0": 3}
    add(total, {"games": 1, "diff:0": 3}, -1)
    assert total == {"games": 2, "wins": 1}


def test_head_to_head_rows_are_ordered_by_player_id() -> None:
    (row,) = pairs([(9, D(3), 2), (4, D(10), 1)])
    assert (row.player_a, row.player_b, row.a_ahead, row.b_ahead, row.difference) == (
        4,
        9,
        1,
        0,
        70_000,
    )


def test_a_game_without_deals_counts_its_result() -> None:
    seats = [SeatResult(i, i + 1, D(0), 1, True) for i in range(3)]
    counted = game_contribution(seats=seats, deals=[], findings={}, point_value=None)
    assert [c.counters for c in counted] == [
        {"games": 1, "place:1": 1, "wins": 1, "shared_wins": 1}
    ] * 3


def test_findings_count_at_their_seat() -> None:
    seats = [
        SeatResult(0, 1, D(0), 2, False),
        SeatResult(1, 2, D(-8), 3, False),
        SeatResult(2, 3, D(10), 1, True),
    ]
    counted = game_contribution(
        seats=seats, deals=[], findings={1: {"play.revoke": 2}}, point_value="1"
    )
    assert [c.counters.get("finding:play.revoke") for c in counted] == [None, 2, None]
    assert [c.counters["balance"] for c in counted] == [-100_000, -180_000, 280_000]
