"""The most a real game can hold, derived from the rules (RULES §1, §8, §9).

The longest game is the longest named schedule of RULES §8 under any deck of RULES §1 and any
number of seats a preset allows; a deal holds at most one play of each card of its deck.
A free schedule, or a list of deals in the ruleset, is held to the same: a record past these
is no game anyone played, and the service refuses it before replaying it, so that the work a
request can cause is bounded by what a game can be rather than by what a body can claim.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from ..cards import Deck, deck_mask
from ..files import Excess
from .rulesets import PRESETS, ScheduleName, preset_ruleset, schedule_for

#: The most seats any preset allows.
MAX_SEATS: Final = max(preset_ruleset(name).max_players for name in PRESETS)
#: The most cards a deal can hold: the largest deck.
MAX_DEAL_PLAYS: Final = max(deck_mask(deck).bit_count() * deck.copies for deck in Deck)


def _longest() -> tuple[int, int]:
    """The most deals and the most plays of any named schedule, deck and number of seats."""
    base = preset_ruleset("classic")
    deals = plays = 0
    for name in ScheduleName:
        if name is ScheduleName.FREE:
            continue
        for deck in Deck:
            ruleset = dataclasses.replace(base, schedule=name, deck=deck, forehead_deal=True)
            for seats in range(2, MAX_SEATS + 1):
                schedule = schedule_for(ruleset, seats) or []
                deals = max(deals, len(schedule))
                plays = max(plays, sum(cards for cards, _ in schedule) * seats)
    return deals, plays


#: The most deals and plays a game can hold.
MAX_DEALS, MAX_PLAYS = _longest()


def record_excess(obj: Any, *, deals: int = MAX_DEALS, plays: int = MAX_PLAYS) -> Excess | None:
    """The first limit a decoded record goes past, counted without replaying it; None when it
    holds no more than a game can. Anything not shaped like a record counts as nothing: the
    replay reports that.

    Every family is held to the same two numbers, each in its own words: the rummy's turns
    count as plays, and the poker's hands as deals and their actions as plays, so that no
    format lets a body claim more work than a trick-taking game can."""
    if not isinstance(obj, dict):
        return None
    key = "hands" if isinstance(obj.get("hands"), list) else "deals"
    listed = obj.get(key)
    if not isinstance(listed, list):
        return None
    if len(listed) > deals:
        return Excess("deals", f"/{key}", deals, len(listed))
    count = 0
    for deal in listed:
        if not isinstance(deal, dict):
            continue
        for name in ("tricks", "stages"):
            moves = deal.get(name)
            if isinstance(moves, list):
                count += sum(len(move) for move in moves if isinstance(move, list))
        turns = deal.get("turns")
        if isinstance(turns, list):
            count += len(turns)
    if count > plays:
        return Excess("plays", f"/{key}", plays, count)
    return None
