"""The poker findings in the reader's language (POKER-FORMAT, "Finding codes"), located by
hand, stage and action; and the words of its hand categories and actions.

Where a poker code says what the trick-taking one does (the dealer, the cards dealt, a card
not in the deck), the sentence is the same one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from web.findings import (
    CATALOGUE,
    RECORD,
    Catalogue,
    Places,
    Sentence,
    cards_html,
    seat_html,
    value_html,
)

POKER_PLACES = Places(
    ("hand", "stage", "action"),
    (
        gettext_lazy("hand %(hand)s"),
        gettext_lazy("hand %(hand)s, stage %(stage)s"),
        gettext_lazy("hand %(hand)s, stage %(stage)s, action %(action)s"),
    ),
)

#: The categories of a hand of five (POKER §2), as players call them.
CATEGORIES = {
    "high_card": pgettext_lazy("poker hand", "high card"),
    "one_pair": pgettext_lazy("poker hand", "one pair"),
    "two_pair": pgettext_lazy("poker hand", "two pair"),
    "three_of_a_kind": pgettext_lazy("poker hand", "three of a kind"),
    "straight": pgettext_lazy("poker hand", "straight"),
    "flush": pgettext_lazy("poker hand", "flush"),
    "full_house": pgettext_lazy("poker hand", "full house"),
    "four_of_a_kind": pgettext_lazy("poker hand", "four of a kind"),
    "straight_flush": pgettext_lazy("poker hand", "straight flush"),
    "royal_flush": pgettext_lazy("poker hand", "royal flush"),
    "five_of_a_kind": pgettext_lazy("poker hand", "five of a kind"),
}

#: A record's action words (POKER-FORMAT, "The record").
ACTIONS = {
    "check": pgettext_lazy("poker action", "check"),
    "call": pgettext_lazy("poker action", "call"),
    "bet": pgettext_lazy("poker action", "bet"),
    "raise": pgettext_lazy("poker action", "raise"),
    "fold": pgettext_lazy("poker action", "fold"),
    "exchange": pgettext_lazy("poker action", "exchange"),
}


def category_text(value: Any) -> str:
    return str(CATEGORIES.get(str(value), value))


def category_html(value: Any, players: Sequence[str]) -> SafeString:
    return (
        format_html("{}", category_text(value))
        if isinstance(value, str)
        else value_html(value, players)
    )


def action_html(value: Any, players: Sequence[str]) -> SafeString:
    return (
        format_html("{}", ACTIONS.get(value, value))
        if isinstance(value, str)
        else value_html(value, players)
    )


def count_html(value: Any, players: Sequence[str]) -> SafeString:
    """A number of cards, where none (null) is 0."""
    return value_html(0 if value is None else value, players)


def seats_html(value: Any, players: Sequence[str]) -> SafeString:
    """Seats (winners) by their names; none is said so."""
    if not isinstance(value, list):
        return value_html(value, players)
    if not value:
        return format_html("{}", _("no one"))
    return format_html_join(", ", "{}", ((seat_html(seat, players),) for seat in value))


POKER_CATALOGUE: Catalogue = {
    **RECORD,
    "record.players": CATALOGUE["record.players"],
    "record.card": Sentence(gettext_lazy("A card cannot be read.")),
    "hand.dealer": CATALOGUE["deal.dealer"],
    # A seat sitting out is due no cards: the engine expects none (null).
    "hand.cards": Sentence(CATALOGUE["deal.cards"].text, expected=count_html),
    "hand.unknown_card": CATALOGUE["deal.unknown_card"],
    "hand.duplicate_card": Sentence(
        gettext_lazy("%(actual)s is seen twice in this hand."), actual=cards_html
    ),
    "hand.ante": Sentence(
        gettext_lazy(
            "%(player)s put up an ante of %(actual)s: outside the ruleset's range, or above "
            "the stack."
        )
    ),
    "bet.order": Sentence(
        gettext_lazy(
            "%(player)s acted out of turn, with nothing to do, or after the betting was over."
        )
    ),
    "bet.after_fold": Sentence(
        gettext_lazy("%(player)s acted after folding, or is not in the hand.")
    ),
    "bet.action": Sentence(
        gettext_lazy("%(player)s chose %(actual)s, which the situation does not allow."),
        actual=action_html,
        absent=gettext_lazy("%(player)s made an action the situation does not allow."),
    ),
    "bet.amount": Sentence(
        gettext_lazy(
            "%(player)s paid the wrong amount, %(actual)s: below the minimum, above the "
            "stack, or not what the call takes."
        ),
        absent=gettext_lazy("%(player)s paid the wrong amount."),
    ),
    "bet.missing": Sentence(
        gettext_lazy("%(player)s still had to act when the stage ended, and is taken to fold.")
    ),
    "exchange.count": Sentence(
        gettext_lazy(
            "The exchange of %(player)s is wrong: too few or too many cards, one exchange too "
            "many, no exchange in this stage, or too few cards left to draw."
        )
    ),
    "exchange.card": Sentence(
        gettext_lazy("%(player)s discarded %(actual)s, holding %(expected)s."),
        expected=cards_html,
        actual=cards_html,
    ),
    "showdown.cards": Sentence(
        gettext_lazy("%(player)s showed %(actual)s, holding %(expected)s."),
        expected=cards_html,
        actual=cards_html,
        absent=gettext_lazy("The cards of %(player)s at the showdown are not known."),
        unknown=gettext_lazy("The cards at the showdown are not all known: %(actual)s."),
    ),
    "showdown.rank": Sentence(
        gettext_lazy("The hand of %(player)s makes %(expected)s; the record says %(actual)s."),
        expected=category_html,
        actual=category_html,
        unseated=gettext_lazy("The dealer's hand makes %(expected)s; the record says %(actual)s."),
    ),
    "result.winner": Sentence(
        gettext_lazy("Winners by the replay: %(expected)s; the record says %(actual)s."),
        expected=seats_html,
        actual=seats_html,
    ),
    "result.pot": Sentence(gettext_lazy("A pot holds %(expected)s; the record says %(actual)s.")),
    "result.payout": Sentence(
        gettext_lazy("%(player)s nets %(expected)s in this hand; the record says %(actual)s.")
    ),
    "result.stack": Sentence(
        gettext_lazy("The stack of %(player)s is %(expected)s; the record says %(actual)s.")
    ),
}
