"""The charts of a player's page, from the statistics API's figures (``stats.selectors``):
the rating over time, bid − taken, exact bids by cards in hand and by deal kind, the poker
hands shown down, and the monthly trend; each with its figures as a table, in the reader's
language.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _

from core.charts import Chart, bar_chart, line_chart, number, spread
from web.poker.findings import category_text
from web.words import KINDS

#: The most points a line of the rating chart is drawn with, and rows its table shows.
LINE_POINTS = 400
TABLE_ROWS = 100
#: bid − taken beyond this many tricks either way is drawn in the end bars.
DIFFERENCE_SPAN = 5


def percent(rate: float | None) -> str:
    """A rate in [0, 1] as a whole percent in the reader's language; a dash when none."""
    if rate is None:
        return "—"
    return _("%(value)s%%") % {"value": number_format(round(rate * 100), 0)}


def signed(value: float | None, places: int = 1) -> str:
    if value is None:
        return "—"
    text = number(abs(value), places)
    return f"+{text}" if value > 0 else (f"−{text}" if value < 0 else text)


def day(when: dt.datetime | str) -> str:
    if isinstance(when, str):
        when = dt.datetime.fromisoformat(when)
    return date_format(timezone.localtime(when), "SHORT_DATE_FORMAT")


def month(period: str, *, short: bool = False) -> str:
    """``2025-03`` as the reader says it: "March 2025", "Март 2025 г."; short for an axis:
    "Mar 2025", "Мар 2025"."""
    year, number_ = period.split("-")
    return date_format(dt.date(int(year), int(number_), 1), "M Y" if short else "YEAR_MONTH_FORMAT")


def rating_chart(ratings: Sequence[Mapping[str, Any]]) -> Chart:
    """The ordinal (μ − 3σ, what boards rank by) after each game, a line per ruleset.

    A line has at most ``LINE_POINTS`` points (more than the plot is wide is ink, not
    information) and the table the latest ``TABLE_ROWS`` games, latest first.
    """
    series = []
    entries = []
    stamps: list[float] = []
    for rating in ratings:
        points = []
        for entry in rating["history"]:
            stamp = entry["played_at"].timestamp()
            stamps.append(stamp)
            points.append((stamp, entry["ordinal"]))
            entries.append((entry["played_at"], entry["game"], rating["ruleset"], entry))
        series.append((rating["ruleset"], _thinned(points)))
    entries.sort(key=lambda e: (e[0], e[1]), reverse=True)
    rows = [
        (
            day(when),
            ruleset,
            number(entry["ordinal"], 2),
            number(entry["mu"], 2),
            number(entry["sigma"], 2),
            number(entry["games"]),
        )
        for when, _, ruleset, entry in entries[:TABLE_ROWS]
    ]
    ticks = []
    if stamps:
        low, high = min(stamps), max(stamps)
        count = 2 if high - low < 7 * 86400 else 4
        ticks = [(s, day(dt.datetime.fromtimestamp(s, dt.UTC))) for s in spread(low, high, count)]
    latest = ", ".join(f"{r['ruleset']} {number(r['ordinal'], 1)}" for r in ratings)
    return line_chart(
        title=_("Rating over time"),
        description=_("The rating (μ − 3σ) after each game; now: %(latest)s.")
        % {"latest": latest or "—"},
        series=series,
        x_ticks=ticks,
        value_label=lambda v: number(v, 0),
        columns=[_("Date"), _("Ruleset"), _("Rating"), "μ", "σ", _("Games")],
        rows=rows,
    )


def _thinned(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Every k-th point, and always the last, so that at most ``LINE_POINTS`` remain."""
    if len(points) <= LINE_POINTS:
        return points
    step = math.ceil(len(points) / (LINE_POINTS - 1))
    return [*points[:-1:step], points[-1]]


def difference_chart(bidding: Mapping[str, Any]) -> Chart:
    """How many deals ended with each bid − taken, extremes gathered in the end bars."""
    counts: dict[int, int] = {}
    for item in bidding["difference"]:
        d = max(-DIFFERENCE_SPAN, min(DIFFERENCE_SPAN, item["difference"]))
        counts[d] = counts.get(d, 0) + item["deals"]
    if counts:
        low, high = min(min(counts), -1), max(max(counts), 1)
    else:
        low = high = 0
    labels = {}
    for d in range(low, high + 1):
        text = signed(d, 0)
        if abs(d) == DIFFERENCE_SPAN:
            text = ("≤" if d < 0 else "≥") + text
        labels[d] = text
    bars = [(labels[d], float(counts.get(d, 0))) for d in range(low, high + 1)] if counts else []
    total = sum(counts.values())
    rows = [
        (labels[d], number(counts.get(d, 0)), percent(counts.get(d, 0) / total if total else None))
        for d in range(low, high + 1)
    ]
    return bar_chart(
        title=_("Bid − taken"),
        description=_(
            "Deals by bid minus tricks taken: 0 is an exact bid, below zero took more than bid."
        ),
        bars=bars,
        value_label=lambda v: number(v, 0),
        columns=[_("Bid − taken"), _("Deals"), _("Share")],
        rows=rows if counts else [],
        marked=lambda label: label == "0",
    )


def _accuracy_rows(items: Sequence[Mapping[str, Any]], label: Any) -> list[tuple[str, ...]]:
    return [
        (label(i), number(i["deals"]), number(i["exact"]), percent(i["exact_rate"])) for i in items
    ]


def by_cards_chart(bidding: Mapping[str, Any]) -> Chart:
    items = bidding["by_cards"]
    return bar_chart(
        title=_("Exact bids by cards in hand"),
        description=_("The share of bids made exactly, for each number of cards dealt."),
        bars=[(str(i["cards"]), _hundred(i["exact_rate"])) for i in items],
        value_label=lambda v: percent(v / 100),
        y_max=100.0,
        columns=[_("Cards"), _("Bids"), _("Exact"), _("Exact rate")],
        rows=_accuracy_rows(items, lambda i: str(i["cards"])),
    )


def by_kind_chart(bidding: Mapping[str, Any]) -> Chart:
    items = bidding["by_kind"]

    def kind(item: Mapping[str, Any]) -> str:
        return str(KINDS.get(item["kind"], item["kind"]))

    return bar_chart(
        title=_("Exact bids by deal kind"),
        description=_("The share of bids made exactly in each kind of deal that has bids."),
        bars=[(kind(i), _hundred(i["exact_rate"])) for i in items],
        value_label=lambda v: percent(v / 100),
        y_max=100.0,
        columns=[_("Deal kind"), _("Bids"), _("Exact"), _("Exact rate")],
        rows=_accuracy_rows(items, kind),
    )


def trend_chart(months: Sequence[Mapping[str, Any]]) -> Chart:
    """Win rate and exact-bid rate month by month (months without games are not drawn)."""
    wins = [(i, _hundred(m["win_rate"])) for i, m in enumerate(months)]
    exact = [(i, _hundred(m["exact_rate"])) for i, m in enumerate(months)]
    step = max(1, math.ceil(len(months) / 4))  # at most five labels: they are wide
    ticks = [
        (float(i), month(m["month"], short=True))
        for i, m in enumerate(months)
        if i % step == 0 or i == len(months) - 1
    ]
    if len(ticks) > 1 and ticks[-1][0] - ticks[-2][0] < step:
        ticks.pop(-2)
    return line_chart(
        title=_("Month by month"),
        description=_("The win rate and the exact-bid rate in each month played."),
        series=[
            (_("Win rate"), [(x, y) for x, y in wins if y is not None]),
            (_("Exact-bid rate"), [(x, y) for x, y in exact if y is not None]),
        ],
        x_ticks=ticks,
        value_label=lambda v: percent(v / 100),
        y_range=(0.0, 100.0),
        columns=[
            _("Month"),
            _("Games"),
            _("Wins"),
            _("Win rate"),
            _("Exact-bid rate"),
            _("Average total"),
        ],
        rows=[
            (
                month(m["month"]),
                number(m["games"]),
                number(m["wins"]),
                percent(m["win_rate"]),
                percent(m["exact_rate"]),
                number(m["average_total"]),
            )
            for m in months
        ],
    )


def _hundred(rate: float | None) -> float | None:
    return None if rate is None else rate * 100


def categories_chart(poker: Mapping[str, Any]) -> Chart:
    """The poker hands a player showed down, by category, best first."""
    items = poker["by_category"]

    def name(item: Mapping[str, Any]) -> str:
        return category_text(item["category"])

    return bar_chart(
        title=_("Hands shown down"),
        description=_("How many hands of each category the player showed down, best first."),
        bars=[(name(i), float(i["hands"])) for i in items],
        value_label=lambda v: number(v, 0),
        columns=[_("Hand"), _("Showdowns")],
        rows=[(name(i), number(i["hands"])) for i in items],
    )
