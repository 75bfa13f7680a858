"""The poker hand evaluator with jokers (docs/poker.md §2, "Hand ranking").

A card is the engine's small int (``cards.py``: ``suit * 13 + rank``, printed jokers 52 and
53); a hand is five of them. A hand's **value** is one int whose order is the order of
POKER §2 up to the suits: the category, then its ranks, then, under ``natural_beats_wild``,
whether it holds no joker. The suit tie-break is a second int (``suit_key``), needed by the
club game only.

Why tables: a hand's value depends only on the multiset of its natural ranks, the number
of jokers, and whether its natural cards share a suit. Both are folded into one int key
(three bits of count per rank, the jokers above them), so evaluating a hand is five
additions, five ``&`` and one dictionary lookup. The tables are built once per set of
options from the rank logic alone; ``naive_value`` tries every card in a joker's place
instead and is the evaluator the tables are tested and measured against.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from itertools import combinations, combinations_with_replacement, product
from typing import Final

from ..cards import X1


class Category(IntEnum):
    """POKER §2's categories, lowest first; ``str`` is the name records and reports use."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    FIVE_OF_A_KIND = 10

    def __str__(self) -> str:
        return self.name.lower()


CATEGORY_NAMES: Final = {str(c): c for c in Category}


class NaturalBeatsWild(StrEnum):
    """Option ``natural_beats_wild`` (POKER §2 step 3)."""

    TIE = "tie"  #: at equal category and ranks
    CATEGORY = "category"  #: at equal category, before the ranks
    OFF = "off"


ACE: Final = 12
CATEGORY_SHIFT: Final = 21
_STRAIGHTS: Final = frozenset({Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH})
_WHEEL: Final = (0, 1, 2, 3, ACE)
JOKER_KEY: Final = 1 << 39  #: a joker in a table key: above the 13 three-bit rank counts


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of POKER §6 that rank hands; one evaluator (and its tables) per value."""

    five_of_a_kind: bool = True
    joker_straight_flush: bool = False
    natural_beats_wild: NaturalBeatsWild = NaturalBeatsWild.TIE


@dataclass(frozen=True, slots=True)
class Made:
    """What a hand makes: its category and its cards' ranks lined up as POKER §2 step 4 reads
    them (bigger group first, higher rank first, the wheel's ace last)."""

    category: Category
    lineup: tuple[int, ...]


def _made(ranks: Sequence[int], flush: bool) -> Made:
    """Five concrete ranks (a rank may appear five times: five of a kind)."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
    lineup = tuple(r for r, c in groups for _ in range(c))
    shape = tuple(c for _, c in groups)
    straight = len(counts) == 5 and (lineup[0] - lineup[4] == 4 or sorted(ranks) == list(_WHEEL))
    if straight and lineup[0] == ACE and lineup[1] == 3:
        lineup = (3, 2, 1, 0, ACE)
    if straight and flush:
        category = Category.ROYAL_FLUSH if lineup[0] == ACE else Category.STRAIGHT_FLUSH
    elif shape[0] == 5:
        category = Category.FIVE_OF_A_KIND
    elif shape[0] == 4:
        category = Category.FOUR_OF_A_KIND
    elif shape[:2] == (3, 2):
        category = Category.FULL_HOUSE
    elif flush:
        category = Category.FLUSH
    elif straight:
        category = Category.STRAIGHT
    elif shape[0] == 3:
        category = Category.THREE_OF_A_KIND
    elif shape[:2] == (2, 2):
        category = Category.TWO_PAIR
    elif shape[0] == 2:
        category = Category.ONE_PAIR
    else:
        category = Category.HIGH_CARD
    return Made(category, lineup)


def encode(made: Made, natural: bool, mode: NaturalBeatsWild) -> int:
    """A hand's value: the category, the ranks (a straight: its top card), the natural bit."""
    ranks = made.lineup[:1] if made.category in _STRAIGHTS else made.lineup
    packed = 0
    for i, rank in enumerate(ranks):
        packed |= rank << (16 - 4 * i)
    flag = int(natural) if mode is not NaturalBeatsWild.OFF else 0
    if mode is NaturalBeatsWild.CATEGORY:
        return made.category << CATEGORY_SHIFT | flag << 20 | packed
    return made.category << CATEGORY_SHIFT | packed << 1 | flag


def category_of(value: int) -> Category:
    return Category(value >> CATEGORY_SHIFT)


def _restricted(made: Made, wild: bool, rules: Rules) -> Made | None:
    """``made`` under the joker's limits (POKER §2): None when the options forbid it."""
    if wild and made.category is Category.FIVE_OF_A_KIND and not rules.five_of_a_kind:
        return None
    if (
        wild
        and not rules.joker_straight_flush
        and made.category in (Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
    ):
        return Made(Category.FLUSH, tuple(sorted(made.lineup, reverse=True)))
    return made


class _Table(dict[int, tuple[int, Made]]):
    """Key → (value, made), each entry worked out from the rank logic on first use: a replay
    needs a few hundred of the tables' 17,000 entries, the exhaustive tests all of them."""

    __slots__ = ("rules", "suited")

    def __init__(self, rules: Rules, suited: bool) -> None:
        super().__init__()
        self.rules = rules
        self.suited = suited

    def __missing__(self, key: int) -> tuple[int, Made]:
        jokers = key // JOKER_KEY
        naturals = tuple(r for r in range(13) for _ in range((key >> (3 * r)) & 7))
        best = self._best(naturals, jokers, combinations_with_replacement(range(13), jokers), False)
        if self.suited:
            lacking = [r for r in range(13) if r not in naturals]
            suited = self._best(naturals, jokers, combinations(lacking, jokers), True)
            best = max(best, suited, key=lambda vm: vm[0])
        self[key] = best
        return best

    def _best(
        self, naturals: tuple[int, ...], jokers: int, wilds: Iterable[tuple[int, ...]], flush: bool
    ) -> tuple[int, Made]:
        best: tuple[int, Made] = (-1, Made(Category.HIGH_CARD, ()))
        for wild in wilds:
            made = _restricted(_made(naturals + wild, flush), jokers > 0, self.rules)
            if made is not None:
                value = encode(made, jokers == 0, self.rules.natural_beats_wild)
                if value > best[0]:
                    best = (value, made)
        return best


class Evaluator:
    """POKER §2 for one ``Rules``: ``value(hand)`` and ``made(hand)`` by lookup."""

    __slots__ = ("flush", "plain", "rules")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.plain = _Table(rules, suited=False)
        self.flush = _Table(rules, suited=True)

    def value(self, hand: Sequence[int]) -> int:
        """The value of five cards; jokers are 52 and 53 (a drawn joker is read as 52)."""
        a, b, c, d, e = hand
        key = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e]
        if _SUIT[a] & _SUIT[b] & _SUIT[c] & _SUIT[d] & _SUIT[e]:
            return self.flush[key][0]
        return self.plain[key][0]

    def made(self, hand: Sequence[int]) -> Made:
        a, b, c, d, e = hand
        key = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e]
        if _SUIT[a] & _SUIT[b] & _SUIT[c] & _SUIT[d] & _SUIT[e]:
            return self.flush[key][1]
        return self.plain[key][1]


_KEY: Final = tuple([1 << (3 * (c % 13)) for c in range(52)] + [JOKER_KEY, JOKER_KEY])
_SUIT: Final = tuple([1 << (c // 13) for c in range(52)] + [15, 15])


@functools.cache
def evaluator(rules: Rules) -> Evaluator:
    return Evaluator(rules)


def is_joker(card: int) -> bool:
    return card >= X1


def naive_value(hand: Sequence[int], rules: Rules) -> int:
    """The value by trying every card the hand does not hold in each joker's place (and,
    for five of a kind, a fifth card of a rank, which no deck holds). The reference the
    tables are checked against; slow by design."""
    naturals = [c for c in hand if not is_joker(c)]
    jokers = len(hand) - len(naturals)
    held = set(naturals)
    options: list[tuple[int, int]] = [(c % 13, c // 13) for c in range(52) if c not in held]
    if rules.five_of_a_kind:
        options += [(r, -1) for r in range(13)]
    known = [(c % 13, c // 13) for c in naturals]
    best = -1
    for wild in product(options, repeat=jokers):
        if jokers == 2 and wild[0] == wild[1] and wild[0][1] >= 0:
            continue
        cards = known + list(wild)
        suits = {s for _, s in cards}
        flush = len(suits) == 1 and -1 not in suits
        made = _restricted(_made([r for r, _ in cards], flush), jokers > 0, rules)
        if made is not None:
            best = max(best, encode(made, jokers == 0, rules.natural_beats_wild))
    return best


@functools.cache
def _places(suit_order: str) -> dict[int, int]:
    """Suit index (``cards.SUITS``) → its place in ``suit_order``, 1 the lowest."""
    return {"SCDH".index(s): i + 1 for i, s in enumerate(suit_order)}


def suit_key(hand: Sequence[int], made: Made, suit_order: str) -> int:
    """POKER §2 step 4: the hand's cards lined up as ``made.lineup`` reads them, natural cards
    of a rank by suit from the highest, then jokers; each position's suit in ``suit_order``
    (1 … 4; a joker 0, below every suit)."""
    place = _places(suit_order)
    by_rank: dict[int, list[int]] = {}
    for card in hand:
        if not is_joker(card):
            by_rank.setdefault(card % 13, []).append(place[card // 13])
    key = 0
    taken: Counter[int] = Counter()
    for rank in made.lineup:
        suits = sorted(by_rank.get(rank, ()), reverse=True)
        i = taken[rank]
        taken[rank] += 1
        key = key << 3 | (suits[i] if i < len(suits) else 0)
    return key


__all__ = [
    "CATEGORY_NAMES",
    "Category",
    "Evaluator",
    "Made",
    "NaturalBeatsWild",
    "Rules",
    "category_of",
    "encode",
    "evaluator",
    "naive_value",
    "suit_key",
]
