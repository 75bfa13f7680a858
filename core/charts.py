"""Charts drawn on the server as SVG: the geometry of bar and line charts, which one template
(``charts/chart.html``, in ``config/templates``) draws for the site's pages and the admin
alike, with a title for screen readers and the same figures as a table.

No JavaScript library and nothing from a CDN: a chart is a few rectangles and polylines,
which Python places in a fixed ``viewBox`` that the browser scales to the page's width. Text
comes in already formatted (and translated) by the caller, so that numbers and dates follow
the reader's language; this module only places it. Colours come from ``charts.css``
(``config/static``), not from attributes, so that the pages' strict Content-Security-Policy
holds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.utils.formats import number_format

WIDTH = 480
HEIGHT = 220
#: The plot area inside the ``viewBox``: room on the left for the values, below for labels.
LEFT, RIGHT, TOP, BOTTOM = 54, 470, 12, 190
#: The widest a bar is drawn: two bars should not fill the chart like walls.
BAR_MAX = 64
#: Colours come from the stylesheet (``.series-0`` …), so that a page can restyle them.
SERIES_CLASSES = 4


@dataclass(frozen=True, slots=True)
class Tick:
    at: float  #: the coordinate in the ``viewBox``
    label: str
    anchor: str = "middle"  #: SVG ``text-anchor``: the ends of a time axis stay inside


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str  #: the category, under the bar
    value: str  #: the value, above the bar and as the bar's tooltip
    marked: bool = False  #: drawn in the accent colour (the zero of a histogram)


@dataclass(frozen=True, slots=True)
class Line:
    name: str
    points: str  #: ``x,y x,y …`` for ``<polyline points>``
    last: tuple[float, float] | None  #: where the series ends, drawn as a dot
    css: str  #: ``series-N``


@dataclass(frozen=True, slots=True)
class Chart:
    """What the template draws. ``columns`` and ``rows`` are the table beside the drawing."""

    title: str
    description: str
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    x_ticks: Sequence[Tick] = ()
    y_ticks: Sequence[Tick] = ()
    bars: Sequence[Bar] = ()
    lines: Sequence[Line] = ()
    baseline: float | None = None  #: the y of zero, when zero is inside the plot
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = RIGHT
    top: int = TOP
    bottom: int = BOTTOM
    legend: Sequence[tuple[str, str]] = field(default=())  #: (name, css) per line

    @property
    def empty(self) -> bool:
        return not self.bars and not self.lines


def number(value: float | int | None, places: int = 1) -> str:
    """A figure in the reader's language, grouped, whole numbers without a fraction (an axis
    reads "4", not "4.0"); a dash when there is none."""
    if value is None:
        return "—"
    if isinstance(value, int) or float(value).is_integer():
        return number_format(int(value), 0, force_grouping=True)
    return number_format(value, places, force_grouping=True)


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round values from at most ``low`` to at least ``high``, about ``count`` of them, a step
    of 1, 2, 2.5 or 5 times a power of ten apart (as plotting libraries choose them)."""
    if not math.isfinite(low) or not math.isfinite(high):
        raise ValueError("ticks need finite bounds")
    if high < low:
        low, high = high, low
    if high - low < 1e-9 * max(1.0, abs(high), abs(low)):  # one value: a range around it
        high, low = high + 1, low - (1 if low else 0)
    raw = (high - low) / max(1, count - 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(low / step)
    ticks = [float(f"{first * step:.12g}")]
    while ticks[-1] < high:
        ticks.append(float(f"{(first + len(ticks)) * step:.12g}"))
    return ticks


def _scale(low: float, high: float, start: float, end: float) -> Callable[[float], float]:
    span = high - low or 1.0
    return lambda v: start + (v - low) / span * (end - start)


def bar_chart(
    *,
    title: str,
    description: str,
    bars: Sequence[tuple[str, float | None]],
    value_label: Callable[[float], str],
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    y_max: float | None = None,
    marked: Callable[[str], bool] = lambda label: False,
    labels: int = 12,
) -> Chart:
    """Bars by category from zero; a ``None`` value is a gap (nothing to count there).

    At most about ``labels`` categories are named under the axis, so that long names (dates)
    do not run into each other; every bar keeps its name in its tooltip and in the table."""
    values = [v for _, v in bars if v is not None]
    top = max([*values, y_max or 0.0, 0.0])
    ticks = nice_ticks(0.0, top or 1.0)
    y = _scale(0.0, ticks[-1], BOTTOM, TOP)
    slot = (RIGHT - LEFT) / max(1, len(bars))
    drawn = []
    for i, (label, value) in enumerate(bars):
        if value is None:
            continue
        width = min(slot * 0.7, BAR_MAX)
        x = LEFT + (i + 0.5) * slot - width / 2
        drawn.append(
            Bar(
                x=round(x, 2),
                y=round(y(value), 2),
                width=round(width, 2),
                height=round(BOTTOM - y(value), 2),
                label=label,
                value=value_label(value),
                marked=marked(label),
            )
        )
    names = [
        Tick(round(LEFT + (i + 0.5) * slot, 2), label)
        for i, (label, _) in enumerate(bars)
        if _every(len(bars), i, labels)
    ]
    return Chart(
        title=title,
        description=description,
        columns=columns,
        rows=rows,
        x_ticks=names,
        y_ticks=[Tick(round(y(t), 2), value_label(t)) for t in ticks],
        bars=drawn,
        baseline=BOTTOM,
    )


def _every(count: int, i: int, room: int = 12) -> bool:
    """Whether category ``i`` of ``count`` gets its label: every one while they fit, else
    every second (or third …), always the first and the last."""
    step = max(1, math.ceil(count / room))
    return i % step == 0 or i == count - 1


def line_chart(
    *,
    title: str,
    description: str,
    series: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    x_ticks: Sequence[tuple[float, str]],
    value_label: Callable[[float], str],
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    y_range: tuple[float, float] | None = None,
) -> Chart:
    """Lines through (x, y) points, x in the units of ``x_ticks`` (a time, an index)."""
    xs = [x for _, points in series for x, _ in points] + [x for x, _ in x_ticks]
    ys = [v for _, points in series for _, v in points]
    if not ys:
        return Chart(title=title, description=description, columns=columns, rows=rows)
    low, high = (min(ys), max(ys)) if y_range is None else y_range
    ticks = nice_ticks(min(low, *ys), max(high, *ys))
    y = _scale(ticks[0], ticks[-1], BOTTOM, TOP)
    x_low, x_high = min(xs), max(xs)
    if x_low == x_high:
        x_low, x_high = x_low - 1, x_high + 1
    x = _scale(x_low, x_high, LEFT + 8, RIGHT - 8)
    lines = []
    for i, (name, points) in enumerate(series):
        if not points:
            continue
        placed = [(round(x(px), 2), round(y(py), 2)) for px, py in points]
        lines.append(
            Line(
                name=name,
                points=" ".join(f"{a},{b}" for a, b in placed),
                last=placed[-1],
                css=f"series-{i % SERIES_CLASSES}",
            )
        )
    zero = y(0.0) if ticks[0] < 0 < ticks[-1] else None
    return Chart(
        title=title,
        description=description,
        columns=columns,
        rows=rows,
        x_ticks=[
            Tick(round(x(at), 2), label, _anchor(i, len(x_ticks)))
            for i, (at, label) in enumerate(x_ticks)
        ],
        y_ticks=[Tick(round(y(t), 2), value_label(t)) for t in ticks],
        lines=lines,
        baseline=None if zero is None else round(zero, 2),
        legend=[(line.name, line.css) for line in lines] if len(lines) > 1 else (),
    )


def _anchor(i: int, count: int) -> str:
    if count < 2:
        return "middle"
    return "start" if i == 0 else ("end" if i == count - 1 else "middle")


def spread(low: float, high: float, count: int = 5) -> list[float]:
    """``count`` evenly spaced values from ``low`` to ``high`` (the places of time ticks)."""
    if count < 2 or high <= low:
        return [low]
    return [low + (high - low) * i / (count - 1) for i in range(count)]
