"""The simulator's players (docs/rummy.md "The simulator"): they draw what they can use,
open as soon as their melds reach the minimum, lay off, take jokers back and use them, and
throw their dearest useless card.

The table is kept here in the simulator's own terms, built card by card as players lay
them (a run is its suit and its ends on the ladder ``A 2 … K A``, a set its rank and
suits), not by the replay's meld checks: a game the bots call legal and the replay rejects
is a bug in one of the two.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import ACE, JOKER, rank_value


@dataclass(slots=True)
class Run:
    suit: int
    low: int  #: ladder position of the lowest card (0 is the ace below the 2)
    high: int
    jokers: dict[int, bool] = field(default_factory=dict)  #: position → a joker stands there

    def card_at(self, position: int) -> int:
        return self.suit * 13 + (ACE if position in (0, 13) else position - 1)

    def ends(self) -> list[int]:
        return [p for p in (self.low - 1, self.high + 1) if 0 <= p <= 13]


@dataclass(slots=True)
class Set:
    rank: int
    suits: set[int]
    jokers: int = 0

    @property
    def size(self) -> int:
        return len(self.suits) + self.jokers


Meld = Run | Set


def position_of(card: int, run: Run) -> int | None:
    """Where ``card`` extends ``run``, or None."""
    if card == JOKER or card // 13 != run.suit:
        return None
    rank = card % 13
    if rank == ACE:
        return 0 if run.low == 1 else 13 if run.high == 12 else None
    p = rank + 1
    return p if p in (run.low - 1, run.high + 1) else None


def fits_set(card: int, meld: Set) -> bool:
    return (
        card != JOKER and card % 13 == meld.rank and card // 13 not in meld.suits and meld.size < 4
    )


def position_value(position: int, ace_low: int) -> int:
    return ace_low if position == 0 else 11 if position == 13 else rank_value(position - 1)


def hand_melds(hand: list[int], ace_low: int) -> list[tuple[Meld, list[int], int]]:
    """Melds a hand can lay, greedily: natural runs (ace high, then low), natural sets, then
    a joker beside a pair. Each is (meld, the cards as the record lists them, its value)."""
    counts = list(hand)
    found: list[tuple[Meld, list[int], int]] = []
    for suit in range(4):
        for positions in (range(1, 14), range(0, 13)):
            segment: list[int] = []
            for p in [*positions, -1]:
                card = suit * 13 + (ACE if p in (0, 13) else p - 1) if p >= 0 else -1
                if p >= 0 and counts[card] > 0 and card not in [_card(suit, q) for q in segment]:
                    segment.append(p)
                    continue
                if len(segment) >= 3:
                    cards = [_card(suit, q) for q in segment]
                    for c in cards:
                        counts[c] -= 1
                    value = sum(position_value(q, ace_low) for q in segment)
                    found.append((Run(suit, segment[0], segment[-1]), cards, value))
                segment = [p] if p >= 0 and counts[card] > 0 else []
    for rank in range(13):
        suits = [s for s in range(4) if counts[s * 13 + rank] > 0]
        if len(suits) >= 3:
            cards = [s * 13 + rank for s in suits]
            for c in cards:
                counts[c] -= 1
            found.append((Set(rank, set(suits)), cards, rank_value(rank) * len(cards)))
    for rank in range(13):
        suits = [s for s in range(4) if counts[s * 13 + rank] > 0]
        if len(suits) == 2 and counts[JOKER] > 0:
            cards = [s * 13 + rank for s in suits]
            for c in cards:
                counts[c] -= 1
            counts[JOKER] -= 1
            found.append((Set(rank, set(suits), 1), [*cards, JOKER], rank_value(rank) * 3))
    return found


def _card(suit: int, position: int) -> int:
    return suit * 13 + (ACE if position in (0, 13) else position - 1)


def joker_spot(table: list[Meld | None]) -> tuple[int, int | None] | None:
    """Where a joker can be laid off: (the meld's index, the card it stands for or None in a
    set), or None."""
    for i, meld in enumerate(table):
        if isinstance(meld, Run):
            ends = meld.ends()
            if ends and meld.high - meld.low < 13:
                return i, meld.card_at(ends[-1])
        elif isinstance(meld, Set) and meld.size < 4:
            return i, None
    return None


def discard_choice(hand: list[int]) -> int:
    """The dearest card that neither pairs nor neighbours another; a joker last of all."""
    best, best_key = -1, (-1, -1)
    for card in range(JOKER):
        if not hand[card]:
            continue
        rank, suit = card % 13, card // 13
        pairs = sum(hand[s * 13 + rank] > 0 for s in range(4)) > 1 or hand[card] > 1
        near = any(
            0 <= r < 13 and r != rank and hand[suit * 13 + r] > 0 for r in (rank - 1, rank + 1)
        )
        key = (0 if pairs or near else 1, rank_value(rank))
        if key > best_key:
            best, best_key = card, key
    return JOKER if best < 0 else best
