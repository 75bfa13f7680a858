"""The podkidnoy auction (RULES §3, §10.10): calls in rounds, one declarer names trump.

Rounds of calls start left of the dealer and every player calls in each round; the
auction ends after the first full round in which exactly one player holds the highest
call. Each bid is that player's last call. Without ``calls`` the bids alone must have a
unique maximum, whose holder is the declarer.
"""

from __future__ import annotations

from .parse import Deal


def check_auction(deal: Deal, bids: list[int], first: int, n: int) -> list[tuple[str, int | None]]:
    """Problems of a deal's auction, as (message, seat) pairs; empty when consistent."""
    problems: list[tuple[str, int | None]] = []
    if deal.calls is not None:
        last: dict[int, int] = {}
        ended_at = None
        for k, (seat, call) in enumerate(deal.calls):
            if seat != (first + k) % n:
                problems.append((f"call {k + 1} is out of turn", seat))
                return problems
            last[seat] = call
            if (k + 1) % n == 0 and _unique_top(last) is not None:
                ended_at = k + 1
                break
        if ended_at is None:
            problems.append(("the calls never leave one highest bidder", None))
            return problems
        if ended_at != len(deal.calls):
            problems.append((f"calls go on after the auction ended at call {ended_at}", None))
        for seat, call in last.items():
            if bids[seat] != call:
                problems.append((f"the bid {bids[seat]} is not the last call {call}", seat))
        declarer = _unique_top(last)
    else:
        declarer = _unique_top(dict(enumerate(bids)))
        if declarer is None:
            problems.append(("no single highest bid to win the auction", None))
    if declarer is not None and deal.declarer is not None and deal.declarer != declarer:
        problems.append((f"the auction was won by seat {declarer}", deal.declarer))
    return problems


def _unique_top(calls: dict[int, int]) -> int | None:
    top = max(calls.values())
    holders = [seat for seat, call in calls.items() if call == top]
    return holders[0] if len(holders) == 1 else None
