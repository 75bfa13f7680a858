"""Small charts drawn on the server as inline SVG: no JavaScript, no library, nothing to load.

A chart is a picture of a short series (a bar per week, a point per game); each mark has a
``<title>`` with its exact value, which browsers show on hover and screen readers read, and
the whole chart an ``aria-label`` saying what it shows. Sizes are in the SVG's own units and
it scales to the width of its container, so it reads on a phone as on a desk.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

WIDTH, HEIGHT, PAD = 600, 180, 28


def _svg(label: str, body: SafeString) -> SafeString:
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" width="100%" role="img" aria-label="{}" '
        'preserveAspectRatio="xMidYMid meet">{}</svg>',
        WIDTH,
        HEIGHT,
        label,
        body,
    )


def _at(value: float) -> str:
    """A coordinate: a tenth of a unit is finer than any screen shows it."""
    return f"{value:.1f}"


def _number(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


def bar_chart(bars: Sequence[tuple[str, float]], *, label: str) -> SafeString:
    """One bar per ``(name, value)``, from zero up; the first and last names under the axis."""
    if not bars:
        return _svg(label, SafeString(""))
    top = max(max(v for _, v in bars), 1)
    step = (WIDTH - 2 * PAD) / len(bars)
    base = HEIGHT - PAD
    rects = format_html_join(
        "",
        '<rect x="{}" y="{}" width="{}" height="{}" fill="currentColor" '
        'opacity="0.75"><title>{}: {}</title></rect>',
        (
            (
                _at(PAD + i * step + step * 0.1),
                _at(base - (base - PAD) * v / top),
                _at(step * 0.8),
                _at((base - PAD) * v / top),
                name,
                _number(v),
            )
            for i, (name, v) in enumerate(bars)
        ),
    )
    axis = format_html(
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="currentColor" opacity="0.4"/>'
        '<text x="{}" y="{}" font-size="11" fill="currentColor">{}</text>'
        '<text x="{}" y="{}" font-size="11" fill="currentColor" text-anchor="end">{}</text>'
        '<text x="2" y="{}" font-size="11" fill="currentColor">{}</text>',
        PAD,
        base,
        WIDTH - PAD,
        base,
        PAD,
        HEIGHT - 8,
        bars[0][0],
        WIDTH - PAD,
        HEIGHT - 8,
        bars[-1][0],
        PAD - 6,
        _number(top),
    )
    return _svg(label, format_html("{}{}", rects, axis))


def line_chart(points: Sequence[tuple[str, float]], *, label: str) -> SafeString:
    """A line through ``(name, value)`` points in order, scaled to their range, with a dot
    per point titled with its name and value; the lowest and highest values on the side."""
    if not points:
        return _svg(label, SafeString(""))
    values = [v for _, v in points]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD - 20) / max(len(points) - 1, 1)

    def xy(i: int, v: float) -> tuple[float, float]:
        return PAD + 20 + i * step, HEIGHT - PAD - (HEIGHT - 2 * PAD) * (v - low) / span

    coords = [xy(i, v) for i, v in enumerate(values)]
    path = " ".join(f"{_at(x)},{_at(y)}" for x, y in coords)
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="3" fill="currentColor"><title>{}: {}</title></circle>',
        (
            (_at(x), _at(y), name, _number(v))
            for (x, y), (name, v) in zip(coords, points, strict=True)
        ),
    )
    scale = format_html(
        '<text x="2" y="{}" font-size="11" fill="currentColor">{}</text>'
        '<text x="2" y="{}" font-size="11" fill="currentColor">{}</text>',
        PAD,
        _number(round(high, 2)),
        HEIGHT - PAD,
        _number(round(low, 2)),
    )
    line = format_html(
        '<polyline points="{}" fill="none" stroke="currentColor" stroke-width="2"/>', path
    )
    return _svg(label, format_html("{}{}{}", line, dots, scale))
