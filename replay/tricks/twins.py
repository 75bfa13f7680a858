"""Identical cards of the 104-card deck in one trick (option ``identical_cards``,
docs/rules.md §1 and decision 30): which of two twins may take the trick.

By default the one played first does, which the trick loops' strict comparisons give for
free (``table.TRICK_RANKS``). The other two rules are read here, only for a trick in which
a card met its twin while that twin was the best so far: any other trick is won as by
default, since a twin that was already beaten cannot matter.
"""

from __future__ import annotations

from ..cards import CARD_BITS
from .rulesets import IdenticalCards


def best_face(
    plays: list[int], decls: list[int] | None, ranks: list[int], rule: IdenticalCards
) -> int:
    """The place of the face card that takes the trick under ``rule``: -1 if no card of the
    led suit or trump may (all such cards cancelled, or none played).

    ``decls`` marks the jokers not played as face cards (None: there are none); ``ranks``
    are ``table.TRICK_RANKS`` of the trick's led suit and trump.
    """
    cards = [
        -1 if decls is not None and decls[k] else code & CARD_BITS for k, code in enumerate(plays)
    ]
    best = best_rank = -1
    if rule is IdenticalCards.CANCEL:
        for k, card in enumerate(cards):
            rank = ranks[card] if card >= 0 else -1
            if rank > best_rank and cards.count(card) == 1:
                best, best_rank = k, rank
        return best
    last = rule is IdenticalCards.LAST_WINS
    for k, card in enumerate(cards):
        rank = ranks[card] if card >= 0 else -1
        if rank > best_rank or (last and rank == best_rank >= 0):
            best, best_rank = k, rank
    return best
