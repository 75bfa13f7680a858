"""The cards of «Джокер» (docs/rummy.md "Cards"): several 52-card decks and their jokers.

A card is a small int as in the trick-taking family, ``suit * 13 + rank`` (ranks 2 … A as
0 … 12), and every joker is the one int ``JOKER``: twins and jokers are identical, so a hand
is a list of counts indexed by card, and holding, drawing and discarding are index updates.
"""

from __future__ import annotations

from itertools import compress
from typing import Final

from ..cards import CARD_CODES, RANKS, SUITS

JOKER: Final = 52
KINDS: Final = 53  #: the length of a hand's counts: 52 ordinary cards and the joker
ACE: Final = 12
KING: Final = 11


def _spellings() -> dict[str, int]:
    codes = {text: card for text, card in CARD_CODES.items() if card < JOKER}
    codes.update({"X": JOKER, "X1": JOKER, "X2": JOKER, "X3": JOKER})
    return codes


CODES: Final = _spellings()
"""Every accepted spelling of a card (upper case) → card."""

#: One entry of a meld: the card, and for a joker the card it stands for (else None).
Entry = tuple[int, int | None]


def read_card(text: str) -> int | None:
    """A card from any spelling: ``TD``, ``10д``, ``X2``; jokers numbered past 3 as well
    (``X4`` in a home deck with more jokers)."""
    card = CODES.get(text)
    if card is not None:
        return card
    upper = text.strip().upper()
    card = CODES.get(upper)
    if card is None and len(upper) > 1 and upper[0] == "X" and upper[1:].isdigit():
        return JOKER
    return card


def read_entry(text: str) -> Entry | None:
    """A meld's card: ``5C``, ``X1``, or a joker with what it stands for, ``X1=5C``. A
    designation on an ordinary card, or naming a joker, cannot be read (None)."""
    if "=" not in text:
        card = read_card(text)
        return None if card is None else (card, None)
    joker, _, named = text.partition("=")
    if read_card(joker) != JOKER:
        return None
    stands = read_card(named)
    if stands is None or stands == JOKER:
        return None
    return (JOKER, stands)


def card_name(card: int) -> str:
    """The canonical code: ``TD``, ``AS``; every joker is ``X`` (they are identical)."""
    return "X" if card == JOKER else RANKS[card % 13] + SUITS[card // 13]


def rank_value(rank: int) -> int:
    """A rank's points as in blackjack: 2–10 face value, J Q K 10, the ace 11."""
    return 11 if rank == ACE else min(rank + 2, 10)


NAMES: Final = tuple(card_name(card) for card in range(KINDS))


def names(counts: list[int]) -> list[str]:
    """A hand's counts as canonical codes, suits in the order S C D H, ranks up, jokers
    last."""
    once = list(compress(NAMES, counts))
    if len(once) == sum(counts):  # no card twice, as in most hands: at C speed
        return once
    return [NAMES[card] for card in range(KINDS) if counts[card] for _ in range(counts[card])]
