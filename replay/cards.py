"""Cards, decks and the play notation of RULES §1 and docs/format.md "Cards and plays".

A card is a small int: ``suit * 13 + rank`` with suits in the rotating-trump cycle order
♠ ♣ ♦ ♥ (RULES §4) and ranks 2 … A as 0 … 12; the printed jokers ``X1``/``X2`` are 52 and
53. Hands are int bitmasks over these numbers, so following suit is one ``&`` with a suit
mask (the python-chess bitboard idea). The 104-card deck holds every card twice; a hand
keeps a second mask for the cards it holds twice (see ``tricks/hands.py``).

A play is encoded in one int as well, so that the replay loop decodes nothing: the card in
the low 6 bits, the joker declaration above it, and the named suit of a lead demand above
that. Every spelling a record may use is precomputed into one dictionary (``PLAY_CODES``),
which makes reading a play one lookup.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final

SUITS: Final = "SCDH"
SUIT_SYMBOLS: Final = "♠♣♦♥"
RANKS: Final = "23456789TJQKA"
X1: Final = 52
X2: Final = 53
CARD_COUNT: Final = 54

SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
JOKER_CARDS_MASK: Final = (1 << X1) | (1 << X2)


class Declaration(IntEnum):
    """How a joker is played (RULES §5). ``NONE`` is an ordinary card or a silent joker."""

    NONE = 0
    HIGH = 1
    LOW = 2
    PLAIN = 3
    LEAD_HIGHEST = 4
    LEAD_LOWEST = 5
    UNKNOWN = 6  #: an object play naming a declaration that does not exist


DECLARATION_NAMES: Final = {
    "high": Declaration.HIGH,
    "low": Declaration.LOW,
    "plain": Declaration.PLAIN,
    "lead_highest": Declaration.LEAD_HIGHEST,
    "lead_lowest": Declaration.LEAD_LOWEST,
}

#: The named suit of a lead demand: 1 … 4 are ♠ ♣ ♦ ♥, 5 is "trumps" (``*``).
NAMED_TRUMP: Final = 5
DECL_SHIFT: Final = 6
SUIT_SHIFT: Final = 9
CARD_BITS: Final = (1 << DECL_SHIFT) - 1
DECL_BITS: Final = 7


def card_name(card: int) -> str:
    """The canonical code of a card: ``AS``, ``TD``, ``X1``."""
    if card >= X1:
        return f"X{card - X1 + 1}"
    return RANKS[card % 13] + SUITS[card // 13]


def suit_of(card: int) -> int:
    """The suit index of an ordinary card (printed jokers have none: -1)."""
    return card // 13 if card < X1 else -1


def rank_of(card: int) -> int:
    return card % 13


def play_code(card: int, declaration: Declaration = Declaration.NONE, named: int = 0) -> int:
    return card | (declaration << DECL_SHIFT) | (named << SUIT_SHIFT)


def play_name(code: int) -> str:
    """The compact notation of a play, the inverse of ``PLAY_CODES``."""
    card = code & CARD_BITS
    decl = (code >> DECL_SHIFT) & DECL_BITS
    named = code >> SUIT_SHIFT
    suffix = {0: "", 1: "+", 2: "-", 3: "="}.get(decl)
    if suffix is None:
        suit = "*" if named == NAMED_TRUMP else SUITS[named - 1]
        suffix = ("+" if decl == Declaration.LEAD_HIGHEST else "-") + suit
    return card_name(card) + suffix


def _rank_spellings() -> dict[str, int]:
    spellings = {r: i for i, r in enumerate(RANKS)}
    spellings["10"] = RANKS.index("T")
    # Russian sheets: В(алет) Д(ама) К(ороль) Т(уз).
    spellings.update({"В": 9, "Д": 10, "К": 11, "Т": 12})
    return spellings


def _suit_spellings() -> dict[str, int]:
    spellings = {s: i for i, s in enumerate(SUITS)}
    spellings.update({s: i for i, s in enumerate(SUIT_SYMBOLS)})
    spellings.update({s: i for i, s in enumerate("♤♧♢♡")})
    # Russian sheets: П(ики), К or Т (трефы, крести), Б(убны), Ч(ерви). К and Т are ranks as
    # well; a card is its rank, then its suit, so ``КК`` is the king of clubs, ``ТТ`` its ace.
    spellings.update({"П": 0, "К": 1, "Т": 1, "Б": 2, "Ч": 3})
    return spellings


def _card_spellings() -> dict[str, int]:
    cards = {"X1": X1, "X2": X2}
    for rank_text, rank in _rank_spellings().items():
        for suit_text, suit in _suit_spellings().items():
            cards[rank_text + suit_text] = suit * 13 + rank
    return cards


CARD_CODES: Final = _card_spellings()
"""Every accepted spelling of a card (upper case) → card."""


def _play_spellings() -> dict[str, int]:
    suffixes: dict[str, tuple[Declaration, int]] = {
        "": (Declaration.NONE, 0),
        "+": (Declaration.HIGH, 0),
        "-": (Declaration.LOW, 0),
        "=": (Declaration.PLAIN, 0),
        "+*": (Declaration.LEAD_HIGHEST, NAMED_TRUMP),
        "-*": (Declaration.LEAD_LOWEST, NAMED_TRUMP),
    }
    for suit_text, suit in _suit_spellings().items():
        suffixes["+" + suit_text] = (Declaration.LEAD_HIGHEST, suit + 1)
        suffixes["-" + suit_text] = (Declaration.LEAD_LOWEST, suit + 1)
    return {
        text + suffix: play_code(card, decl, named)
        for text, card in CARD_CODES.items()
        for suffix, (decl, named) in suffixes.items()
    }


PLAY_CODES: Final = _play_spellings()
"""Every accepted spelling of a play (upper case) → play code."""


def read_card(text: str) -> int | None:
    """A card from any accepted spelling, or None."""
    card = CARD_CODES.get(text)
    if card is None:
        card = CARD_CODES.get(text.strip().upper())
    return card


def read_suit(text: str) -> int | None:
    """A suit index from ``S``/``♠``… (any case), or None."""
    return _SUITS_READ.get(text.strip().upper()) if isinstance(text, str) else None


_SUITS_READ: Final = _suit_spellings()


class Deck(StrEnum):
    """The decks of RULES §1 by their number of cards, as the ``deck`` option names them."""

    SHORT = "36"  #: six to ace of each suit
    FULL = "52"
    JOKERS = "54"  #: the full deck with its two printed jokers
    DOUBLE = "104"  #: two full decks: every card has a twin

    @property
    def copies(self) -> int:
        """How many of each card the deck holds."""
        return 2 if self is Deck.DOUBLE else 1


def deck_mask(deck: Deck) -> int:
    """The cards of a deck (RULES §1); the 104-card deck is two 52-card decks."""
    if deck is Deck.SHORT:
        return sum(((1 << 9) - 1) << (13 * s + 4) for s in range(4))
    full = (1 << 52) - 1
    if deck is Deck.JOKERS:
        return full | JOKER_CARDS_MASK
    return full


def deck_size(size: str) -> int:
    return {"36": 36, "52": 52, "54": 54, "104": 104}[size]
