"""Melds (docs/rummy.md "Melds"): runs and sets, their validity and their opening value.

A meld is kept as its natural cards and, per joker, the card it stands for (None for a set's
joker, whose designation binds nothing). A run's cards sit on the ladder
``A 2 … K A`` as positions 0 … 13, so a run is valid when its positions are distinct and
unbroken; an ace takes the position the other cards need, high when either will do.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from .cards import ACE, JOKER, rank_value


class Kind(StrEnum):
    RUN = "run"
    SET = "set"


def run_positions(ranks: list[int]) -> list[int] | None:
    """The ladder positions of a run's ranks, sorted, or None when they are no run."""
    aces = ranks.count(ACE)
    others = sorted(rank + 1 for rank in ranks if rank != ACE)
    if len(set(others)) != len(others) or aces > 2:
        return None
    if aces == 0:
        positions = others
    elif aces == 2:
        positions = [0, *others, 13]
    else:
        positions = [*others, 13]
        if not _unbroken(positions):
            positions = [0, *others]
    return positions if _unbroken(positions) else None


def _unbroken(positions: list[int]) -> bool:
    return positions[-1] - positions[0] == len(positions) - 1


def classify(naturals: list[int], stands: list[int | None], max_jokers: int | None) -> Kind | None:
    """The kind of the meld these cards make, or None when they make none.

    ``stands`` holds, per joker, the card it stands for. A meld needs three cards, one of
    them natural; when the natural and named cards share one rank it is a set, else a run.
    """
    size = len(naturals) + len(stands)
    if size < 3 or not naturals or (max_jokers is not None and len(stands) > max_jokers):
        return None
    named = naturals + [card for card in stands if card is not None]
    rank = named[0] % 13
    if all(card % 13 == rank for card in named):
        suits = [card // 13 for card in naturals]
        designated = [card // 13 for card in stands if card is not None]
        if size > 4 or len(set(suits)) != len(suits):
            return None
        if len(set(designated)) != len(designated) or set(designated) & set(suits):
            return None
        return Kind.SET
    if None in stands:
        return None
    suit = named[0] // 13
    if any(card // 13 != suit for card in named):
        return None
    return Kind.RUN if run_positions([card % 13 for card in named]) is not None else None


def value(naturals: list[int], stands: list[int | None], kind: Kind | None, ace_low: int) -> int:
    """The opening value of a meld (an invalid one is worth 0): a joker counts as the card
    it stands for, an ace below the 2 counts ``ace_low``."""
    if kind is None:
        return 0
    if kind is Kind.SET:
        return rank_value(naturals[0] % 13) * (len(naturals) + len(stands))
    named = naturals + [card for card in stands if card is not None]
    positions = run_positions([card % 13 for card in named]) or []
    return sum(ace_low if p == 0 else rank_value(p - 1) if p < 13 else 11 for p in positions)


def kind_of(naturals: list[int], stands: list[int | None], max_jokers: int | None) -> Kind | None:
    """``classify``, remembered: games lay and extend the same few thousand melds over and
    over, and a meld is classified again at every lay-off. No kind or value depends on the
    order of the natural cards, so they are remembered sorted: a meld laid in any order is
    one entry."""
    return _kind(tuple(sorted(naturals)), tuple(stands), max_jokers)


def worth_of(naturals: list[int], stands: list[int | None], kind: Kind | None, ace_low: int) -> int:
    """``value``, remembered as ``kind_of`` is."""
    return _worth(tuple(sorted(naturals)), tuple(stands), kind, ace_low)


@lru_cache(maxsize=16384)
def _kind(
    naturals: tuple[int, ...], stands: tuple[int | None, ...], max_jokers: int | None
) -> Kind | None:
    return classify(list(naturals), list(stands), max_jokers)


@lru_cache(maxsize=16384)
def _worth(
    naturals: tuple[int, ...], stands: tuple[int | None, ...], kind: Kind | None, ace_low: int
) -> int:
    return value(list(naturals), list(stands), kind, ace_low)


@dataclass(slots=True)
class Meld:
    """A meld on the table: its number in the deal, who laid it, and its cards."""

    number: int
    owner: int
    naturals: list[int]
    stands: list[int | None]
    kind: Kind | None

    def cards(self) -> list[int]:
        return self.naturals + [JOKER] * len(self.stands)

    def joker_for(self, card: int) -> int | None:
        """The index of the joker ``card`` may replace, or None (docs/rummy.md "Taking a
        joker back")."""
        if not self.stands:
            return None
        if self.kind is Kind.SET:
            suits = {c // 13 for c in self.naturals}
            rank = self.naturals[0] % 13
            return 0 if card % 13 == rank and card // 13 not in suits else None
        for i, stands in enumerate(self.stands):
            if stands == card:
                return i
        return None
