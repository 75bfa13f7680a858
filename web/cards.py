"""Cards as players write them on paper: the rank, then the suit's symbol (``10♦``, ``К♠``).

Hearts and diamonds are red, spades and clubs black; the face ranks are the reader's letters
(J Q K A in English, В Д К Т in Russian). A joker's play carries its declaration in words
(RULES §5): the printed jokers are named, a designated card shows its face and then the
words. Anything a record holds that is no card is shown as written, escaped.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from replay.cards import (
    CARD_BITS,
    CARD_CODES,
    DECL_BITS,
    DECL_SHIFT,
    NAMED_TRUMP,
    PLAY_CODES,
    SUIT_SHIFT,
    SUIT_SYMBOLS,
    SUITS,
    X1,
    Declaration,
    rank_of,
    suit_of,
)

RED_SUITS = frozenset((2, 3))  # ♦ ♥ in the engine's suit order ♠ ♣ ♦ ♥


def _rank(rank: int) -> str:
    """The rank as written on the reader's sheets: digits, then the face letters."""
    if rank <= 7:
        return str(rank + 2)
    if rank == 8:
        return "10"
    return (
        pgettext("card rank", "J"),
        pgettext("card rank", "Q"),
        pgettext("card rank", "K"),
        pgettext("card rank", "A"),
    )[rank - 9]


def suit_html(suit: int) -> SafeString:
    """One suit's symbol, coloured."""
    colour = "red" if suit in RED_SUITS else "black"
    return format_html('<span class="suit {}">{}</span>', colour, SUIT_SYMBOLS[suit])


def _face(card: int) -> SafeString:
    if card >= X1:
        return format_html('<span class="card joker">{}</span>', _("Joker"))
    suit = suit_of(card)
    colour = "red" if suit in RED_SUITS else "black"
    return format_html(
        '<span class="card {}">{}{}</span>', colour, _rank(rank_of(card)), SUIT_SYMBOLS[suit]
    )


def card_html(text: object) -> SafeString:
    """A card from any spelling the records use (``TD``, ``10♦``, ``X1``)."""
    card = CARD_CODES.get(str(text).strip().upper())
    if card is None:
        return format_html('<span class="card unknown">{}</span>', text)
    return _written(get_language(), card)


#: Cards and plays as written, by language: a game's page writes thousands of them.
_WRITTEN: dict[tuple[str | None, int], SafeString] = {}


def _written(language: str | None, code: int) -> SafeString:
    """A card (or a play, with its declaration) in ``language``, written once."""
    key = (language, code)
    written = _WRITTEN.get(key)
    if written is None:
        written = _WRITTEN[key] = _play(code) if code > CARD_BITS else _face(code)
    return written


def _named(named: int) -> SafeString:
    """The suit a joker's lead demand names: a symbol, or the trumps in words."""
    return suit_html(named - 1) if named != NAMED_TRUMP else format_html("{}", _("trumps"))


def declaration_words(code: int) -> SafeString | None:
    """A joker's declaration in words (RULES §5), or None for a play without one."""
    declaration = (code >> DECL_SHIFT) & DECL_BITS
    named = code >> SUIT_SHIFT
    if declaration == Declaration.HIGH:
        return format_html("{}", pgettext("joker", "high"))
    if declaration == Declaration.LOW:
        return format_html("{}", pgettext("joker", "low"))
    if declaration == Declaration.PLAIN:
        return format_html("{}", pgettext("joker", "at face value"))
    if declaration == Declaration.LEAD_HIGHEST:
        return format_html(pgettext("joker", "the highest {}"), _named(named))
    if declaration == Declaration.LEAD_LOWEST:
        if named == NAMED_TRUMP:
            return format_html("{}", pgettext("joker", "as the lowest trump"))
        return format_html(pgettext("joker", "as the lowest {}"), _named(named))
    return None


def play_html(text: object) -> SafeString:
    """A play in the compact notation (``7S+H``, ``X1-``): the card and, for a joker, its
    declaration in words."""
    code = PLAY_CODES.get(str(text).strip().upper())
    if code is None:
        return format_html('<span class="card unknown">{}</span>', text)
    return _written(get_language(), code)


def _play(code: int) -> SafeString:
    card = code & CARD_BITS
    words = declaration_words(code)
    if words is None:
        return _face(card)
    if card >= X1:
        return format_html('{} <span class="declaration">{}</span>', _face(card), words)
    label = format_html(pgettext("joker", "joker, {}"), words)
    return format_html('{} <span class="declaration">{}</span>', _face(card), label)


def trump_html(suit: object) -> SafeString:
    """The trump of a deal (a suit letter), or "no trump" in words for None."""
    if suit is None or suit == "":
        return format_html('<span class="no-trump">{}</span>', _("no trump"))
    index = SUITS.find(str(suit).upper())
    if index < 0 or len(str(suit)) != 1:
        return format_html("{}", suit)
    return suit_html(index)


def hand_order(cards: Iterable[object]) -> list[str]:
    """A hand as players hold it: by suit (♠ ♣ ♦ ♥), the highest first, jokers in front;
    what is no card stays, at the end."""

    return sorted((str(c) for c in cards), key=_held)


@functools.lru_cache(maxsize=4096)
def _held(text: str) -> tuple[int, int]:
    """Where a card goes in a hand: jokers, then by suit, the highest first."""
    card = CARD_CODES.get(text.strip().upper())
    if card is None:
        return (5, 0)
    if card >= X1:
        return (-1, card)
    return (suit_of(card), -rank_of(card))


def hand_html(cards: Iterable[object]) -> SafeString:
    """A seat's hand, ordered as players hold it."""
    return format_html_join(" ", "{}", ((card_html(c),) for c in hand_order(cards)))
