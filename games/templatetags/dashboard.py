"""``{% admin_dashboard as board %}``: what the admin's index shows of the service, from the
selectors (``games.selectors.game_dashboard``, ``verification.selectors.finding_code_counts``).

A tag rather than a custom admin site, so that the admin stays Django's own and the index
template alone (``config/templates/admin/index.html``) decides where the figures go.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import formats
from django.utils.translation import gettext as _

from core.charts import bar_chart, number
from games.selectors import game_dashboard
from verification.selectors import finding_code_counts

register = template.Library()


@register.simple_tag
def admin_dashboard() -> dict[str, Any]:
    board = game_dashboard()
    total = sum(n for _, n in board.verdicts)
    chart = bar_chart(
        title=_("Games stored per week, the last 12 weeks"),
        description=_("The games stored in each week, from its Monday, oldest first."),
        # Day and month under a bar (a full date is wider than one), the year in the table.
        bars=[(formats.date_format(day, "j M"), float(n)) for day, n in board.weeks],
        value_label=lambda v: number(v, 2),
        columns=[_("Week"), _("Games")],
        rows=[(formats.date_format(day, "SHORT_DATE_FORMAT"), number(n)) for day, n in board.weeks],
        labels=4,  # every third week and the last: "23 Nov" is wider than a bar
    )
    return {
        "board": board,
        "weeks_chart": chart,
        "stored_weeks": sum(n for _, n in board.weeks),
        "verdicts": [(v, n, n / total if total else 0) for v, n in board.verdicts],
        "total": total,
        "codes": finding_code_counts(limit=10),
    }
