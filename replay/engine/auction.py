"""The podkidnoy auction (RULES §3, §10.10): calls in rounds, one declarer names trump.

Rounds of calls start left of the dealer and every player calls in each round; the
auction ends after the first full round in which exactly one player holds the highest
call. Each bid is that player's last call. Without ``calls`` the bids alone must have a
unique maximum, whose holder is the declarer.

Each problem names the field of the deal it is about (``calls``, ``bids``, ``declarer``)
so that the ``bid.auction`` finding points at it; the replay stops reading the calls at
the first call out of turn, since every later call is then out of turn as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .parse import Deal


@dataclass(frozen=True, slots=True)
class AuctionProblem:
    message: str
    seat: int | None  #: the seat at fault, if one is
    where: tuple[str | int, ...]  #: the place in the deal: ("calls", 3), ("declarer",), …
    expected: Any = None
    actual: Any = None


def check_auction(deal: Deal, bids: list[int], first: int, n: int) -> list[AuctionProblem]:
    """Problems of a deal's auction; empty when consistent."""
    problems: list[AuctionProblem] = []
    if deal.calls is not None:
        last: dict[int, int] = {}
        ended_at = None
        for k, (seat, call) in enumerate(deal.calls):
            due = (first + k) % n
            if seat != due:
                problems.append(
                    AuctionProblem(f"call {k + 1} is out of turn", seat, ("calls", k), due, seat)
                )
                return problems
            last[seat] = call
            if (k + 1) % n == 0 and _unique_top(last) is not None:
                ended_at = k + 1
                break
        if ended_at is None:
            problems.append(
                AuctionProblem("the calls never leave one highest bidder", None, ("calls",))
            )
            return problems
        if ended_at != len(deal.calls):
            problems.append(
                AuctionProblem(
                    f"calls go on after the auction ended at call {ended_at}",
                    None,
                    ("calls", ended_at),
                    ended_at,
                    len(deal.calls),
                )
            )
        for seat, call in last.items():
            if bids[seat] != call:
                problems.append(
                    AuctionProblem(
                        f"the bid {bids[seat]} is not the last call {call}",
                        seat,
                        ("bids", seat),
                        call,
                        bids[seat],
                    )
                )
        declarer = _unique_top(last)
    else:
        declarer = _unique_top(dict(enumerate(bids)))
        if declarer is None:
            problems.append(
                AuctionProblem("no single highest bid to win the auction", None, ("bids",))
            )
    if declarer is not None and deal.declarer is not None and deal.declarer != declarer:
        problems.append(
            AuctionProblem(
                f"the auction was won by seat {declarer}",
                deal.declarer,
                ("declarer",),
                declarer,
                deal.declarer,
            )
        )
    return problems


def _unique_top(calls: dict[int, int]) -> int | None:
    top = max(calls.values())
    holders = [seat for seat, call in calls.items() if call == top]
    return holders[0] if len(holders) == 1 else None
