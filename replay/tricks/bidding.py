"""Bidding (RULES §3, §10.7, §10.8, §10.10; FORMAT ``bid.*``): the hook, three passes,
blind bids, and the podkidnoy auction.

Sequential bids are checked in bidding order, the order of the findings. The auction runs
in rounds of calls from the left of the dealer, every player calling in each round; it ends
after the first full round in which exactly one player holds the highest call. Each bid is
that player's last call. Without ``calls`` the bids alone must have a unique maximum, whose
holder is the declarer. Each auction problem names the field of the deal it is about
(``calls``, ``bids``, ``declarer``) so that the ``bid.auction`` finding points at it; the
replay stops reading the calls at the first call out of turn, since every later call is
then out of turn as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, cast

from ..findings import Code, pointer
from .context import DealContext, count
from .parse import Deal
from .rulesets import DealKind

_DARK: Final = DealKind.DARK  #: read once: an enum member costs a descriptor call in 3.11


def bidding(ctx: DealContext) -> None:
    """The deal's bids (None without bidding), blind bids and last bidder, into ``ctx``."""
    game = ctx.game
    deal = ctx.deal
    n = game.n
    ruleset = game.ruleset
    where = ("deals", deal.index, "bids")
    if not ruleset.bids_in(deal.kind):
        if deal.bids and any(bid is not None for bid in deal.bids):  # empty cells: no bids
            ctx.find(
                Code.BID_UNEXPECTED,
                f"a {deal.kind.replace('_', '-')} deal has no bids",
                path=pointer(*where),
            )
        ctx.result.blind = [False] * n
        return
    given = deal.bids or []
    first = ctx.dealer if ruleset.first_bidder_is_dealer else (ctx.dealer + 1) % n
    cards = deal.cards
    result = ctx.result
    blind = result.blind = [deal.kind is _DARK] * n
    count_passes = ruleset.three_passes and not ruleset.auction
    pass_runs = game.pass_runs
    order = game.turns[first]
    # The common deal, a plain bid in range from every seat, has nothing to find but the
    # passes: its bids are taken as they are, and only a pass costs a call.
    # ``dark`` is None only when every bid is an int: then ``given`` holds no null.
    ints = cast("list[int]", given)
    stated = deal.dark is None and len(ints) == n and min(ints) >= 0 and max(ints) <= cards
    bids = result.bids = list(ints) if stated else [0] * n
    if count_passes or not stated:
        for seat in order:  # in bidding order, the order of the findings
            if not stated:
                bids[seat] = _bid(ctx, seat, blind, where)
            if not count_passes:
                continue
            if bids[seat] != 0:
                pass_runs[seat] = 0
            else:
                _count_pass(ctx, seat, where)
    if ruleset.auction:
        for problem in check_auction(deal, bids, first, n):
            ctx.find(
                Code.BID_AUCTION,
                problem.message,
                seat=problem.seat,
                expected=problem.expected,
                actual=problem.actual,
                path=pointer("deals", deal.index, *problem.where),
            )
        return
    last = result.last_bidder = order[-1]
    if ruleset.hook and sum(bids) == deal.cards:
        ctx.find(
            Code.BID_HOOK,
            f"the last bidder may not make the bids add up to {deal.cards}",
            seat=last,
            actual=bids[last],
            path=pointer(*where, last),
        )


def _bid(ctx: DealContext, seat: int, blind: list[bool], where: tuple[Any, ...]) -> int:
    """One seat's bid as stated, its missing, range and blind findings made; a blind bid
    is marked in ``blind``. ``bidding`` calls it only for a deal with something to find.
    """
    deal = ctx.deal
    given = deal.bids or []
    stated = given[seat] if seat < len(given) else None
    if stated is not None:
        bid = stated
        dark = deal.dark is not None and deal.dark[seat]
    else:  # a short list, or a null bid (an empty cell of a sheet): scored as a pass
        path = pointer(*where, seat) if seat < len(given) else pointer(*where)
        ctx.find(Code.BID_MISSING, "no bid is given", seat=seat, path=path)
        bid, dark = 0, False
    cards = deal.cards
    if not 0 <= bid <= cards:
        ctx.find(
            Code.BID_RANGE,
            f"bid {bid} with {count(cards, 'card')}",
            seat=seat,
            expected=[0, cards],
            actual=bid,
            path=pointer(*where, seat),
        )
    if dark and deal.kind is not _DARK:
        if not ctx.game.ruleset.dark_bids:
            problem = "blind bids are not allowed"
        else:
            problem = "a blind pass is not allowed" if bid == 0 else ""
        if problem:
            ctx.find(Code.BID_DARK, problem, seat=seat, actual=bid, path=pointer(*where, seat))
        blind[seat] = True
    return bid


def _count_pass(ctx: DealContext, seat: int, where: tuple[Any, ...]) -> None:
    """A pass: one more in the seat's run, and the third in a row is found (RULES §3)."""
    pass_runs = ctx.game.pass_runs
    pass_runs[seat] += 1
    if pass_runs[seat] >= 3:
        ctx.find(
            Code.BID_THREE_PASSES,
            "a third pass in a row",
            seat=seat,
            expected="a bid above 0",
            actual=0,
            path=pointer(*where, seat),
        )


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
