"""What one counted game adds to each of its players' statistics, as additive counters.

A contribution is a flat ``{name: int}`` per seat, so that aggregates are plain sums: adding
a game adds its counters, removing it (an overturned review, a replaced record) subtracts the
same counters, and a full recompute sums them again in any order with the same result.
Points (totals, deal scores, balances) are kept as integers in units of 1/10,000 — the
places of the stored totals — so no sum ever drifts; ``SCALED`` names them.

The deals come from the game's seat-deal rows (``verification.models.SeatDeal``), which the
verification writes from its replay, so that a statistics update parses and replays nothing;
their scores are rounded to 1/10,000 as the counters round (``rows.score_units``), and
``Game.point_value`` holds the record's point value. The one place rows and replay part: a
game that is not verified has its rows held to the columns' range (``rows.seat_deal_rows``),
so an illegal record that a reviewer made count and that claims a number past 2**31 - 1 (a
bid of 10**30) counts the held numbers, not the exact ones (whose points could overflow the
``bigint`` sums and fail every update). Results — totals, places, winners — come
from the game's seats, since a reviewer may have corrected them (``dispute_resolve``). Names
of the counters:

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

The rummy's and the poker's counters are named under their family (``rummy_counters``,
``poker_counters``), so that the sums over every ruleset key add them beside the
trick-taking family's without mixing them:

- ``rummy:deals``, ``rummy:points``; ``rummy:outs``, ``rummy:out_jokers`` (outs with
  jokers in the going-out discard), and of deals replayed turn by turn (``rummy:full``)
  ``rummy:full_outs`` and ``rummy:out_rounds`` (the sum of the rounds they went out in);
  ``rummy:openings`` with ``rummy:opening_rounds`` and ``rummy:opening_worth``, sums over
  the full deals it opened in; ``rummy:left_deals`` and ``rummy:left:points``: the deals it
  did not go out in, and the points its hand was left with;
- ``poker:hands`` (dealt in), ``poker:won``, ``poker:net`` (chips or units, unscaled),
  ``poker:showdowns``, ``poker:showdowns_won``, ``poker:category:K`` per category shown
  down, ``poker:fold:S`` per stage folded at.

Settlement: with a point value ``v``, every loser pays ``(best − own total) × v``; when
several seats share the best total, each loser's payment is split evenly between them (so a
loser pays the same whether one or three seats won, and the table's balances add up to
zero up to the rounding of shares to 1/10,000).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from itertools import combinations

from verification.services.rows import SCORE_SCALE
from verification.services.rows import score_units as scaled

SCALE = SCORE_SCALE  #: the unit of points: that of the score columns, so rows add up exactly
#: Counters holding points in 1/SCALE units (and every ``kind:K:points``).
SCALED = frozenset({"total", "balance", "points", "points_won", "points_made"})


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


def settlement(totals: Sequence[Decimal], value: Fraction) -> list[int]:
    """Each seat's balance in 1/SCALE units (see the module docstring)."""
    best = max(totals)
    winners = [i for i, t in enumerate(totals) if t == best]
    paid = [Fraction(best - t) * value if t != best else Fraction(0) for t in totals]
    share = sum(paid, Fraction(0)) / len(winners)
    return [scaled(share) if i in winners else -scaled(paid[i]) for i in range(len(totals))]


#: The seat-deal columns the counters read, in the order of the tuples ``game_contribution``
#: takes (``stats.services._facts_build`` selects them so): plain tuples, since a statistics
#: update reads some 150 of them a game. ``points`` is the ``score`` in 1/SCALE units.
SEAT_DEAL_COLUMNS = (
    "game_id",
    "seat",
    "kind",
    "cards",
    "bid",
    "dark",
    "taken",
    "points",
    "hook",
    "jokers_held",
    "jokers",
    "joker_high",
    "joker_low",
    "joker_plain",
    "joker_demand",
    "joker_lead_highest",
    "joker_wins",
)
SeatDealRow = tuple[
    int, int, str, int, int | None, bool, int, int, bool, int | None,
    int, int, int, int, int, int, int,
]  # fmt: skip


#: The rummy seat-deal columns ``rummy_counters`` reads, in its tuples' order; ``points``
#: in 1/SCALE units, as ``SEAT_DEAL_COLUMNS``'.
RUMMY_COLUMNS = (
    "game_id",
    "seat",
    "points",
    "out",
    "out_round",
    "out_jokers",
    "opened_round",
    "opening",
    "full",
)
RummyRow = tuple[int, int, int, bool, int | None, int, int | None, int | None, bool]


def rummy_counters(rows: Iterable[RummyRow]) -> dict[int, dict[str, int]]:
    """Each seat's rummy counters of one game, from its rummy seat-deal rows."""
    counters: dict[int, defaultdict[str, int]] = defaultdict(lambda: defaultdict(int))
    for _, seat, points, out, out_round, out_jokers, opened_round, opening, full in rows:
        c = counters[seat]
        c["rummy:deals"] += 1
        c["rummy:points"] += points
        if full:
            c["rummy:full"] += 1
        if out:
            c["rummy:outs"] += 1
            c["rummy:out_jokers"] += out_jokers > 0
            if out_round is not None:
                c["rummy:full_outs"] += 1
                c["rummy:out_rounds"] += out_round
        else:
            c["rummy:left_deals"] += 1
            c["rummy:left:points"] += points
        if opened_round is not None and opening is not None:
            c["rummy:openings"] += 1
            c["rummy:opening_rounds"] += opened_round
            c["rummy:opening_worth"] += opening
    return {seat: dict(c) for seat, c in counters.items()}


#: The poker seat-hand columns ``poker_counters`` reads, in its tuples' order.
POKER_COLUMNS = ("game_id", "seat", "net", "won", "showdown", "category", "folded")
PokerRow = tuple[int, int, int, bool, bool, str, int | None]


def poker_counters(rows: Iterable[PokerRow]) -> dict[int, dict[str, int]]:
    """Each seat's poker counters of one game, from its poker seat-hand rows."""
    counters: dict[int, defaultdict[str, int]] = defaultdict(lambda: defaultdict(int))
    for _, seat, net, won, showdown, category, folded in rows:
        c = counters[seat]
        c["poker:hands"] += 1
        c["poker:net"] += net
        c["poker:won"] += won
        if showdown:
            c["poker:showdowns"] += 1
            c["poker:showdowns_won"] += won
            c[f"poker:category:{category}"] += 1
        if folded is not None:
            c[f"poker:fold:{folded}"] += 1
    return {seat: dict(c) for seat, c in counters.items()}


def game_contribution(
    *,
    seats: Sequence[SeatResult],
    deals: Iterable[SeatDealRow],
    findings: Mapping[int, Mapping[str, int]],
    point_value: str | None,
    family: Mapping[int, Mapping[str, int]] | None = None,
) -> list[SeatContribution]:
    """Each seat's counters for one game, from its seat-deal rows (any order); ``family``:
    the rummy's or the poker's counters of each seat (``rummy_counters``,
    ``poker_counters``)."""
    # defaultdict rather than Counter: a Counter's missing name goes through a Python-level
    # ``__missing__``, which made this loop take twice as long.
    counters: dict[int, defaultdict[str, int]] = {s.seat: defaultdict(int) for s in seats}
    for seat, own in (family or {}).items():
        if seat in counters:
            counters[seat].update(own)
    for (
        _,
        seat,
        kind,
        cards,
        bid,
        dark,
        taken,
        score,
        hook,
        held,
        jokers,
        high,
        low,
        plain,
        demand,
        lead_highest,
        wins,
    ) in deals:
        c = counters[seat]
        kind_deals, kind_points, kind_bids, kind_exact = _kind_keys(kind)
        c["deals"] += 1
        c["points"] += score
        c[kind_deals] += 1
        c[kind_points] += score
        if score > 0:
            c["points_won"] += score
        if bid is not None:
            made = bid == taken
            c["bids"] += 1
            c[_diff_key(bid - taken)] += 1
            cards_bids, cards_exact = _cards_keys(cards)
            c[cards_bids] += 1
            c[kind_bids] += 1
            if made:
                c["exact"] += 1
                c[cards_exact] += 1
                c[kind_exact] += 1
                c["points_made"] += score
            elif taken > bid:
                c["over"] += 1
            else:
                c["under"] += 1
            if bid == 0:
                c["passes"] += 1
                c["passes_made"] += made
            if dark and kind != "dark":
                c["blind"] += 1
                c["blind_made"] += made
            if hook:
                c["hook"] += 1
                c["hook_made"] += made
        if held:
            c["joker_deals"] += 1
            c["jokers"] += held
        if jokers:
            # ``joker:D`` per declaration played, as ``rows._joker_counts`` counts them.
            c["joker:high"] += high
            c["joker:low"] += low
            c["joker:plain"] += plain
            c["joker:lead_highest"] += lead_highest
            c["joker:lead_lowest"] += demand - lead_highest
            c["joker:other"] += jokers - high - low - plain - demand
            c["joker_wins"] += wins
    totals = [s.total for s in seats]
    winners = sum(1 for s in seats if s.winner)
    value = None if point_value is None else Fraction(Decimal(point_value))
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


# The counters' names, made once per kind, number of cards and difference rather than once
# per seat and deal: the same few recur in every game.


@functools.lru_cache(maxsize=64)
def _kind_keys(kind: str) -> tuple[str, str, str, str]:
    return f"kind:{kind}:deals", f"kind:{kind}:points", f"kind:{kind}:bids", f"kind:{kind}:exact"


@functools.lru_cache(maxsize=256)
def _cards_keys(cards: int) -> tuple[str, str]:
    return f"cards:{cards}:bids", f"cards:{cards}:exact"


@functools.lru_cache(maxsize=256)
def _diff_key(difference: int) -> str:
    return f"diff:{difference}"


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


def pairs(seats: Sequence[tuple[int, Decimal, int]]) -> list[PairResult]:
    """Head-to-head results of a table, from each seat's (player, total, place): the better
    place is ahead, whichever way its family ranks totals."""
    out = []
    for (pa, ta, qa), (pb, tb, qb) in combinations(seats, 2):
        if pa == pb:
            continue
        if pa > pb:
            pa, ta, qa, pb, tb, qb = pb, tb, qb, pa, ta, qa
        out.append(PairResult(pa, pb, int(qa < qb), int(qb < qa), int(qa == qb), scaled(ta - tb)))
    return out
