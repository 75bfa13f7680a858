"""The geometry of the server-drawn charts (``core.charts``): ticks, bars and lines inside
the plot, proportional to their values; and a player's long rating history, thinned."""

from __future__ import annotations

import datetime as dt
import itertools
import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from core import charts
from web import player_charts

#: Chart values: counts, percentages, ratings, totals, to a hundredth.
finite = st.integers(min_value=-(10**8), max_value=10**8).map(lambda n: n / 100)


@given(finite, finite)
@example(-1.42, -1.81)  # a step of 0.1 that subtraction makes 0.0999…
def test_nice_ticks_cover_the_range_in_round_even_steps(a: float, b: float) -> None:
    low, high = min(a, b), max(a, b)
    ticks = charts.nice_ticks(low, high)
    assert ticks[0] <= low and ticks[-1] >= high
    assert 2 <= len(ticks) <= 12
    step = float(f"{ticks[1] - ticks[0]:.12g}")  # the ticks are printed to 12 digits
    assert all(y - x == pytest.approx(step) for x, y in itertools.pairwise(ticks))
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 6) in {1, 2, 2.5, 5}


def test_nice_ticks_of_a_percentage() -> None:
    assert charts.nice_ticks(0, 100) == [0, 25, 50, 75, 100]
    assert charts.nice_ticks(0, 7) == [0, 2, 4, 6, 8]


def test_bars_stand_on_the_baseline_in_proportion_to_their_values() -> None:
    chart = charts.bar_chart(
        title="t",
        description="d",
        bars=[("a", 10.0), ("b", None), ("c", 5.0), ("0", 0.0)],
        value_label=str,
        columns=["x"],
        rows=[["1"]],
        marked=lambda label: label == "0",
    )
    a, c, zero = chart.bars
    assert [b.label for b in chart.bars] == ["a", "c", "0"]  # no bar where nothing counts
    for bar in chart.bars:
        assert bar.y + bar.height == pytest.approx(charts.BOTTOM)
        assert bar.x >= charts.LEFT and bar.x + bar.width <= charts.RIGHT
    assert a.height == pytest.approx(2 * c.height)
    assert zero.height == 0 and zero.marked and not a.marked
    assert [t.label for t in chart.x_ticks] == ["a", "b", "c", "0"]
    assert chart.y_ticks[0].label == "0.0"


def test_lines_stay_inside_the_plot_and_keep_their_order() -> None:
    chart = charts.line_chart(
        title="t",
        description="d",
        series=[("up", [(0, -5.0), (1, 0.0), (2, 20.0)]), ("flat", [(0, 3.0), (2, 3.0)])],
        x_ticks=[(0, "start"), (2, "end")],
        value_label=str,
        columns=[],
        rows=[],
    )
    up, flat = chart.lines
    points = [tuple(map(float, p.split(","))) for p in up.points.split()]
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    assert points[0][1] > points[1][1] > points[2][1]  # higher values are higher up
    for x, y in points:
        assert charts.LEFT <= x <= charts.RIGHT and charts.TOP <= y <= charts.BOTTOM
    assert up.last == points[-1]
    assert chart.baseline is not None and points[1][1] == pytest.approx(chart.baseline)
    assert [name for name, _ in chart.legend] == ["up", "flat"]
    assert up.css != flat.css


def test_a_chart_without_values_is_empty() -> None:
    chart = charts.line_chart(
        title="t",
        description="d",
        series=[("s", [])],
        x_ticks=[],
        value_label=str,
        columns=[],
        rows=[],
    )
    assert chart.empty
    bars = charts.bar_chart(
        title="t", description="d", bars=[], value_label=str, columns=[], rows=[]
    )
    assert bars.empty


def test_a_long_rating_history_is_drawn_thinned_and_tabled_latest_first() -> None:
    start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    history = [
        {
            "game": i,
            "played_at": start + dt.timedelta(days=i),
            "ordinal": float(i % 7),
            "mu": 25.0,
            "sigma": 5.0,
            "games": i + 1,
        }
        for i in range(1000)
    ]
    chart = player_charts.rating_chart([{"ruleset": "classic", "ordinal": 6.0, "history": history}])
    (line,) = chart.lines
    points = line.points.split()
    assert len(points) <= player_charts.LINE_POINTS
    assert line.last is not None and points[-1] == f"{line.last[0]},{line.last[1]}"
    assert len(chart.rows) == player_charts.TABLE_ROWS
    assert chart.rows[0][0] == player_charts.day(history[-1]["played_at"])  # latest first
