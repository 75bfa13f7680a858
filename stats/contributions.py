"""What one counted game adds to each of its players' statistics, as additive counters.

A contribution is a flat ``{name: int}`` per seat, so that aggregates are plain sums: adding
a game adds its counters, removing it (an overturned review, a replaced record) subtracts the
same counters, and a full recompute sums them again in any order with the same result.
Points (totals, deal scores, balances) are kept as integers in units of 1/10,000 — the
places of the stored totals — so no sum ever drifts; ``SCALED`` names them.

The deals are replayed from the stored record text with the engine (``replay.engine``), which
gives what the seat-deal rows do not: the dealt hands (jokers held in sheet deals) and the
last bidder. Results — totals, places, winners — come from the game's seats instead, since a
reviewer may have corrected them (``dispute_resolve``). Names of the counters:

- ``games``, ``wins`` (shared wins included), ``shared_wins``, ``place:K``, ``total``;
- ``settled``, ``balance``: games with ``meta.point_value`` and the settlement (below);
- ``deals``, ``points``, ``points_won`` (the positive deal scores), ``points_made`` (scores
  of deals whose bid was made), ``kind:K:deals``, ``kind:K:points`` for every deal;
- bidding deals: ``bids``, ``exact``, ``over``, ``under``, ``passes``, ``passes_made``,
  ``diff:D`` (bid − taken), ``cards:C:bids``/``:exact``, ``kind:K:bids``/``:exact``,
  ``blind``/``blind_made`` (a blind bid outside dark deals, where every bid is blind),
  ``hook``/``hook_made`` (the last bidder under the hook, RULES §3);
- jokers: ``joker_deals`` (deals holding one), ``jokers`` (jokers held), ``joker:D`` per
  declaration played (``high``, ``low``, ``plain``, ``lead_highest``, ``lead_lowest``,
  ``other``), ``joker_wins`` (tricks their play won);
- ``finding:CODE``: the stored report's findings located at this seat.

Settlement: with a point value ``v``, every loser pays ``(best − own total) × v``; when
several seats share the best total, each loser's payment is split evenly between them (so a
loser pays the same whether one or three seats won, and the table's balances add up to
zero up to the rounding of shares to 1/10,000).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from itertools import combinations
from typing import Any

from replay.engine import parse_record, replay
from replay.services.json_codec import record_loads

SCALE = 10_000
#: Counters holding points in 1/SCALE units (and every ``kind:K:points``).
SCALED = frozenset({"total", "balance", "points", "points_won", "points_made"})
DECLARATIONS = {0: "high", 1: "high", 2: "low", 3: "plain", 4: "lead_highest", 5: "lead_lowest"}


def scaled(value: int | float | Fraction | Decimal) -> int:
    """A score in 1/SCALE units, rounded half to even past the fourth place."""
    if type(value) is int:
        return value * SCALE
    return round(Fraction(value) * SCALE)


def is_scaled(name: str) -> bool:
    return name in SCALED or name.endswith(":points")


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A seat as the game's seats store it (after any correction by a reviewer)."""

    seat: int
    player_id: int
    total: Decimal
    place: int
    winner: bool


@dataclass(slots=True)
class SeatContribution:
    seat: int
    player_id: int
    total: Decimal
    place: int
    winner: bool
    counters: dict[str, int] = field(default_factory=dict)


def point_value(meta: Any) -> Fraction | None:
    """``meta.point_value`` when it is a positive finite number (a numeric string too)."""
    if not isinstance(meta, dict):
        return None
    value = meta.get("point_value")
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    if not number.is_finite() or number <= 0:
        return None
    return Fraction(number)


def settlement(totals: Sequence[Decimal], value: Fraction) -> list[int]:
    """Each seat's balance in 1/SCALE units (see the module docstring)."""
    best = max(totals)
    winners = [i for i, t in enumerate(totals) if t == best]
    paid = [Fraction(best - t) * value if t != best else Fraction(0) for t in totals]
    share = sum(paid, Fraction(0)) / len(winners)
    return [scaled(share) if i in winners else -scaled(paid[i]) for i in range(len(totals))]


def game_contribution(
    *,
    text: str,
    seats: Sequence[SeatResult],
    findings: Mapping[int, Mapping[str, int]],
    rulesets: Mapping[str, Any],
) -> list[SeatContribution] | None:
    """Each seat's counters for one game; None when the record cannot be replayed."""
    try:
        value = record_loads(text)
    except (ValueError, RecursionError):
        return None
    record, _ = parse_record(value, rulesets)
    if record is None or len(record.players) != len(seats):
        return None
    report = replay(record)
    n = len(seats)
    joker_mask = record.ruleset.joker_mask
    hook = record.ruleset.hook
    counters = [Counter[str]() for _ in range(n)]
    for result, deal in zip(report.deals, record.deals, strict=True):
        kind = result.kind
        bids = result.bids
        held = _jokers_held(deal.hands, result, joker_mask, n)
        for seat in range(n):
            c = counters[seat]
            score = scaled(result.scores[seat])
            c["deals"] += 1
            c["points"] += score
            c[f"kind:{kind}:deals"] += 1
            c[f"kind:{kind}:points"] += score
            if score > 0:
                c["points_won"] += score
            if bids is not None:
                _count_bid(c, result, seat, bids[seat], score, hook)
            if held is not None and held[seat]:
                c["joker_deals"] += 1
                c["jokers"] += held[seat]
        for joker in result.jokers:
            c = counters[joker.seat]
            c[f"joker:{DECLARATIONS.get(joker.declaration, 'other')}"] += 1
            if joker.won:
                c["joker_wins"] += 1
    totals = [s.total for s in seats]
    winners = sum(1 for s in seats if s.winner)
    value = point_value(value.get("meta"))
    balances = settlement(totals, value) if value is not None else None
    contributions = []
    for s in sorted(seats, key=lambda s: s.seat):
        c = counters[s.seat]
        c["games"] = 1
        c[f"place:{s.place}"] = 1
        c["total"] = scaled(s.total)
        if s.winner:
            c["wins"] = 1
            if winners > 1:
                c["shared_wins"] = 1
        if balances is not None:
            c["settled"] = 1
            c["balance"] = balances[s.seat]
        for code, count in findings.get(s.seat, {}).items():
            c[f"finding:{code}"] += count
        contributions.append(
            SeatContribution(
                s.seat, s.player_id, s.total, s.place, s.winner, {k: v for k, v in c.items() if v}
            )
        )
    return contributions


def _count_bid(c: Counter[str], result: Any, seat: int, bid: int, score: int, hook: bool) -> None:
    kind = result.kind
    cards = result.cards
    taken = result.taken[seat]
    made = bid == taken
    c["bids"] += 1
    c[f"diff:{bid - taken}"] += 1
    c[f"cards:{cards}:bids"] += 1
    c[f"kind:{kind}:bids"] += 1
    if made:
        c["exact"] += 1
        c[f"cards:{cards}:exact"] += 1
        c[f"kind:{kind}:exact"] += 1
        c["points_made"] += score
    elif taken > bid:
        c["over"] += 1
    else:
        c["under"] += 1
    if bid == 0:
        c["passes"] += 1
        if made:
            c["passes_made"] += 1
    if kind != "dark" and result.blind and result.blind[seat]:
        c["blind"] += 1
        if made:
            c["blind_made"] += 1
    if hook and result.last_bidder == seat:
        c["hook"] += 1
        if made:
            c["hook_made"] += 1


def _jokers_held(
    hands: list[list[int]] | None, result: Any, joker_mask: int, n: int
) -> list[int] | None:
    """Jokers each seat was dealt: from the hands, else from its plays; None if unknown."""
    if hands is not None and len(hands) == n:
        return [sum(1 for card in hand if joker_mask >> card & 1) for hand in hands]
    if result.audit == "sheet":
        return None
    held = [0] * n
    for joker in result.jokers:
        held[joker.seat] += 1
    return held


# -- sums ---------------------------------------------------------------------------------


def add(into: dict[str, int], counters: Mapping[str, int], sign: int = 1) -> None:
    """``into += sign × counters``, dropping names that reach zero."""
    for name, value in counters.items():
        total = into.get(name, 0) + sign * value
        if total:
            into[name] = total
        else:
            into.pop(name, None)


@dataclass(frozen=True, slots=True)
class PairResult:
    """One game of two players, oriented so that ``player_a < player_b``."""

    player_a: int
    player_b: int
    a_ahead: int
    b_ahead: int
    ties: int
    difference: int  #: total_a − total_b, scaled


def pairs(seats: Sequence[tuple[int, Decimal]]) -> list[PairResult]:
    """Head-to-head results of a table, from each seat's (player, total)."""
    out = []
    for (pa, ta), (pb, tb) in combinations(seats, 2):
        if pa == pb:
            continue
        if pa > pb:
            pa, ta, pb, tb = pb, tb, pa, ta
        out.append(PairResult(pa, pb, int(ta > tb), int(tb > ta), int(ta == tb), scaled(ta - tb)))
    return out
