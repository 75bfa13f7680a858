"""A claim of a deal's last tricks (docs/format.md "Claims", RULES decisions 33–36; FORMAT
``claim.*``): the claimer takes every trick after the deal's ``tricks``, and where the
dealt hands are known the claim is checked by the double-dummy solver (``solver``).

A claim the others could have beaten by some legal play is ``claim.beaten``, with the line
of play that beats it; the tricks are still the claimer's, as the table scored them. A
claim the replay cannot check (no dealt hands, an incomplete trick before it, hands that
no longer add up, or a search past the solver's budget, of the claim or of the record's
claims together) is ``claim.unchecked``: a warning, never a guess.
"""

from __future__ import annotations

from typing import Final

from ..cards import play_name
from ..findings import Code, pointer
from .context import DealContext, count
from .solver import DEFAULT_BUDGET, Position, takes_all

#: The solver's nodes one record's claims may spend together, so that a record of many
#: claims that are hard to check costs a bounded time (each claim has ``DEFAULT_BUDGET``).
RECORD_BUDGET: Final = 5 * DEFAULT_BUDGET


def settle_claim(ctx: DealContext, first: int, singles: list[int], doubles: list[int]) -> None:
    """Give the claimed tricks to the claimer and check the claim; ``singles`` and
    ``doubles`` are the hands left after the played tricks, ``first`` the deal's first
    leader."""
    deal = ctx.deal
    game = ctx.game
    claimer = deal.claim
    tricks = deal.tricks
    assert claimer is not None and tricks is not None, "the parser makes a claim need tricks"
    result = ctx.result
    left = deal.cards - len(tricks)
    result.taken[claimer] += left
    result.claim = (claimer, left)
    trick = len(tricks) + 1
    where = pointer("deals", deal.index, "claim")
    claimed = f"the last {count(left, 'trick')}" if left > 1 else "the last trick"
    if not tricks:
        claimed = "every trick"
    why = ""
    if deal.written_hands is None:
        why = "the dealt hands are not in the record"
    elif any(len(plays) != game.n for plays in tricks):
        why = "a trick before it is not complete"
    elif any(s.bit_count() + d.bit_count() != left for s, d in zip(singles, doubles, strict=True)):
        why = "the hands left do not hold one card per trick"
    if why:
        ctx.find(
            Code.CLAIM_UNCHECKED,
            f"claims {claimed}, not checked: {why}",
            trick=trick,
            seat=claimer,
            path=where,
        )
        return
    leader = result.trick_winners[-1] if result.trick_winners else first
    position = Position(
        game.ruleset, tuple(singles), tuple(doubles), ctx.trump, leader, len(tricks)
    )
    budget = min(DEFAULT_BUDGET, RECORD_BUDGET - game.claim_nodes)
    answer = takes_all(position, claimer, budget)
    game.claim_nodes += min(answer.nodes, budget)
    if answer.takes_all is None:
        if budget < DEFAULT_BUDGET:
            why, limit = "the record's claims have used up", RECORD_BUDGET
        else:
            why, limit = "the search needs more than", DEFAULT_BUDGET
        ctx.find(
            Code.CLAIM_UNCHECKED,
            f"claims {claimed}, not checked: {why} {limit:,} positions",
            trick=trick,
            seat=claimer,
            expected=limit,
            path=where,
        )
    elif not answer.takes_all:
        line = [play_name(code) for code in answer.line]
        n = game.n
        shown = ", then ".join(" ".join(line[i : i + n]) for i in range(0, len(line), n))
        ctx.find(
            Code.CLAIM_BEATEN,
            f"claims {claimed}, but the others can take one: {shown}",
            trick=trick,
            seat=claimer,
            expected=left,
            actual=line,
            path=where,
        )
