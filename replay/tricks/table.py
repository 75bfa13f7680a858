"""What the replay derives once from a ruleset and a player count (RULES §1, §4, §8).

A preset is one shared ``Ruleset``, so every record played under it reuses its tables: the
deck as a bitmask, the schedule, the suit masks that oblige a seat to follow or to trump,
the seat of each play by leader, and the scale of the running totals.

Who takes a trick (RULES §4) is written here as data: a card's rank in a trick
(``TRICK_RANKS``) is above every card of the led suit if it is a trump, above nothing if it
is of neither suit, and the highest rank takes the trick; strict comparisons make the first
of two twins win (RULES §1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..cards import SUIT_MASKS, X1, Deck, deck_mask
from .rulesets import DealKind, Ruleset, schedule_for

#: A joker play as the replay reads it: its declaration, the suit a lead demand names (-1:
#: none) and the problem to report ("" if none).
Reading = tuple[int, int, str]

BITS = [1 << card for card in range(64)]
#: The suit of each card code, ``card // 13``: a list index is cheaper than a division.
#: The printed jokers are in a fifth, empty "suit" (4).
SUIT_OF = [card // 13 for card in range(64)]
EVERY_CARD = sum(BITS)  #: a mask of every card code
#: The trump of a trick under rotating trumps (RULES §10.14): the suit after the led one
#: (after the printed jokers' "suit" 4 comes clubs, as ``(4 + 1) % 4`` has it).
NEXT_SUIT = tuple((suit + 1) % 4 for suit in range(5))


def _trick_ranks(led: int, trump: int) -> list[int]:
    """Each card's rank in a trick of the ``led`` suit under ``trump`` (-1: none of either)."""
    ranks = []
    for card in range(64):
        suit = SUIT_OF[card]
        if suit == trump:
            ranks.append(128 + card)
        elif suit == led:
            ranks.append(64 + card)
        else:
            ranks.append(-1)
    return ranks


#: ``TRICK_RANKS[led][trump][card]``; a led suit or a trump of -1 (none) is the last entry,
#: as a negative index reads it, and the led "suit" 4 is the printed jokers'.
TRICK_RANKS = [
    [_trick_ranks(led, trump) for trump in (0, 1, 2, 3, -1)] for led in (0, 1, 2, 3, 4, -1)
]


@dataclass(frozen=True, slots=True)
class Table:
    """What the replay derives from a ruleset for a number of players (see ``table_for``)."""

    deck: Deck
    deck_bits: int
    copies: int
    deck_size: int
    schedule: tuple[tuple[int, DealKind], ...] | None
    #: Holding a joker never obliges (RULES §4): the suit masks that oblige leave jokers out.
    obliging: tuple[int, ...]
    #: The trumps that oblige a seat void in the led suit: none without ``must_trump``, so
    #: that a discard by a seat holding a trump costs the trick loops no call.
    trump_obliging: tuple[int, ...]
    #: The play codes of face cards that are not jokers, the only ones the fast trick loop
    #: replays itself; the printed jokers of a deck without them go the general way as well.
    #: Empty for the 104-card deck, whose twins only the general loop handles.
    plain_codes: frozenset[int]
    #: The seat of each play of a trick, by its leader: ``turns[leader][k]``.
    turns: tuple[tuple[int, ...], ...]
    #: Joker plays as read by ``jokers.read_declaration``, by (code, leads, first trick,
    #: trump).
    readings: dict[tuple[int, bool, bool, int], Reading]
    #: Running totals are kept as ints scaled by a common denominator: adding fractions
    #: (3/2 multipliers) deal after deal is the slowest arithmetic of the replay.
    scale: int
    #: With a power-of-two denominator (3/2 multipliers) every score is an exact binary
    #: float, which compares with the claims at C speed; otherwise scores stay fractions.
    binary: bool
    #: The ruleset's joker cards, counted in each dealt hand (``DealResult.jokers_held``).
    jokers: tuple[int, ...]


def table_for(ruleset: Ruleset, players: int) -> Table:
    """The ruleset's table for this many players, made by the first game of that size."""
    table: Table | None = ruleset.tables.get(players)
    if table is None:
        deck = ruleset.deck_for(players)
        deck_bits = deck_mask(deck)
        copies = deck.copies
        schedule = schedule_for(ruleset, players)
        scale = _common_denominator(ruleset) ** 3
        # A fifth, empty "suit" for printed jokers (X1, X2 // 13 == 4) that are not jokers
        # of this ruleset: such a card is found as unknown, and obliges nobody.
        obliging = (*(mask & ~ruleset.joker_mask for mask in SUIT_MASKS), 0)
        table = ruleset.tables[players] = Table(
            deck,
            deck_bits,
            copies,
            deck_bits.bit_count() * copies,
            None if schedule is None else tuple(schedule),
            obliging,
            obliging if ruleset.must_trump else (0,) * len(obliging),
            frozenset(
                card for card in range(X1) if copies == 1 and not ruleset.joker_mask >> card & 1
            ),
            tuple(tuple((lead + k) % players for k in range(players)) for lead in range(players)),
            {},
            scale,
            scale & (scale - 1) == 0,
            tuple(card for card in range(64) if ruleset.joker_mask >> card & 1),
        )
    return table


def _common_denominator(ruleset: Ruleset) -> int:
    """The least common denominator of a ruleset's numbers; a score is a product of at
    most three of them (base × kind multiplier × blind multiplier), hence the cube."""
    numbers = [getattr(ruleset, name) for name in ruleset.__slots__]
    numbers += list(ruleset.kind_multipliers.values())
    formulas = [f.denominator for f in (ruleset.formula_made, ruleset.formula_missed) if f]
    return math.lcm(*(n.denominator for n in numbers if isinstance(n, Fraction)), *formulas, 1)
