"""The score sheet's rows, deals × players as players write them: each seat's bid, tricks
taken, score and running total, a claimed value that differs struck through beside the
recomputed one.

Written here rather than in a template: a 36-deal game of four has 600 cells, and the
template engine took a third of the page's time to write them.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django.utils.formats import number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from verification.selectors import Claim, DealView
from web.cards import trump_html


def _number(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return escape(number_format(value))
    return escape(str(value))


def _claim(claim: Claim, claimed_title: str, extra: str = "") -> str:
    if not claim.differs:
        return f'<td class="num{extra}">{_number(claim.recomputed)}</td>'
    return (
        f'<td class="num differs{extra}"><span class="claimed" title="{claimed_title}">'
        f"{_number(claim.claimed)}</span> {_number(claim.recomputed)}</td>"
    )


def sheet_rows(deals: list[DealView], replay_id: str | None, linkable: bool) -> SafeString:
    """The ``<tr>`` of every deal; its number links to the deal's start in the replay."""
    claimed_title = escape(_("claimed on the sheet"))
    rows = []
    for deal in deals:
        start = f"deal={deal.number}" + ("&amp;trick=1&amp;play=0" if deal.tricks else "")
        if replay_id is None:
            number = str(deal.number)
        else:
            href = (f"?{start}" if linkable else "") + f"#{replay_id}"
            number = (
                f'<a href="{href}" data-moment="{start}" data-replay-target="{replay_id}">'
                f"{deal.number}</a>"
            )
        cells = [
            f'<th scope="row">{number}</th>',
            f'<td class="num">{_number(deal.cards)}</td>',
            f"<td>{trump_html(deal.trump)}</td>",
        ]
        for seat in deal.seats:
            cells.append(f'<td class="num">{_number(seat.bid)}</td>')
            cells.append(_claim(seat.taken, claimed_title))
            cells.append(_claim(seat.score, claimed_title))
            cells.append(_claim(seat.running, claimed_title, " total"))
        mark = ' class="offending"' if deal.offending else ""
        rows.append(f"<tr{mark}>{''.join(cells)}</tr>")
    # Every value above is a number or escaped; the markup is this module's own.
    return mark_safe("\n".join(rows))
