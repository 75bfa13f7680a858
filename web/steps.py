"""Where each button of the replay goes from a moment (``web/static/web/replay.js`` steps the
same way in the browser; the server writes the buttons as links, so they work without it).

A deal's moments in order: its start (trick 1, play 0), each play of trick 1, then each play
of the next trick, its first play following the end of the trick before. A deal audited from
the sheet has one moment, the deal itself. Trick ``t`` play 0 for ``t`` > 1 (an address may
ask for it: the table cleared) lies between the end of trick ``t - 1`` and its first play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Position = tuple[int, int | None, int | None]  #: deal, trick, play (None: no tricks)


def _lengths(line: Mapping[str, Any], deal: int) -> list[int]:
    return [len(t["plays"]) for t in line["deals"][deal - 1]["tricks"]]


def start(line: Mapping[str, Any], deal: int) -> Position | None:
    if not 1 <= deal <= len(line["deals"]):
        return None
    return (deal, 1, 0) if _lengths(line, deal) else (deal, None, None)


def end(line: Mapping[str, Any], deal: int) -> Position | None:
    if not 1 <= deal <= len(line["deals"]):
        return None
    lengths = _lengths(line, deal)
    return (deal, len(lengths), lengths[-1]) if lengths else (deal, None, None)


def _after_trick(lengths: Sequence[int], deal: int, trick: int) -> Position:
    return (deal, trick, lengths[trick - 1])


def steps(line: Mapping[str, Any], position: Position) -> dict[str, Position | None]:
    """The moment each button leads to, None where there is none (the game's first or last)."""
    deal, trick, play = position
    lengths = _lengths(line, deal)
    if trick is None or play is None:
        return {
            "prev_deal": start(line, deal - 1),
            "prev_trick": end(line, deal - 1),
            "prev_play": end(line, deal - 1),
            "next_play": start(line, deal + 1),
            "next_trick": start(line, deal + 1),
            "next_deal": start(line, deal + 1),
        }
    count = lengths[trick - 1]
    last = len(lengths)
    at_start = trick == 1 and play == 0
    if play < count:
        next_play: Position | None = (deal, trick, play + 1)
        next_trick: Position | None = _after_trick(lengths, deal, trick)
    elif trick < last:
        next_play = (deal, trick + 1, min(1, lengths[trick]))
        next_trick = _after_trick(lengths, deal, trick + 1)
    else:
        next_play = next_trick = start(line, deal + 1)
    if play > 1 or (play == 1 and trick == 1):
        prev_play: Position | None = (deal, trick, play - 1)
    elif trick > 1:
        prev_play = _after_trick(lengths, deal, trick - 1)
    else:
        prev_play = end(line, deal - 1)
    if trick > 1:
        prev_trick: Position | None = _after_trick(lengths, deal, trick - 1)
    elif play > 0:
        prev_trick = (deal, 1, 0)
    else:
        prev_trick = end(line, deal - 1)
    next_deal = start(line, deal + 1)
    if next_deal is None and position != end(line, deal):
        next_deal = end(line, deal)  # the last deal: to its end
    return {
        "prev_deal": start(line, deal - 1) if at_start else (deal, 1, 0),
        "prev_trick": prev_trick,
        "prev_play": prev_play,
        "next_play": next_play,
        "next_trick": next_trick,
        "next_deal": next_deal,
    }


def query(line: Mapping[str, Any], position: Position) -> str:
    """The address of a moment: the end of a trick leaves ``play`` out."""
    deal, trick, play = position
    if trick is None:
        return f"deal={deal}"
    if play == _lengths(line, deal)[trick - 1]:
        return f"deal={deal}&trick={trick}"
    return f"deal={deal}&trick={trick}&play={play}"
