"""The rummy's findings in the reader's language (RUMMY-FORMAT, "Finding codes"), located by
deal, turn and action.

Where a rummy code says what the trick-taking one does (the dealer, the cards dealt, the
running and final totals), the sentence is the same one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from web.findings import CATALOGUE, RECORD, Catalogue, Places, Sentence, cards_html, seat_html

RUMMY_PLACES = Places(
    ("deal", "turn", "action"),
    (
        gettext_lazy("deal %(deal)s"),
        gettext_lazy("deal %(deal)s, turn %(turn)s"),
        gettext_lazy("deal %(deal)s, turn %(turn)s, action %(action)s"),
    ),
)


def going_out_html(value: Any, players: Sequence[str]) -> SafeString:
    """Who went out (``{"out": seat, "out_jokers": n}``): a name, and the jokers if any."""
    if not isinstance(value, dict):
        return seat_html(value, players)
    out, jokers = value.get("out"), value.get("out_jokers")
    if out is None:
        return format_html("{}", _("no one"))
    name = seat_html(out, players)
    if not isinstance(jokers, int) or isinstance(jokers, bool) or jokers <= 0:
        return name
    said = ngettext("on %(count)s joker", "on %(count)s jokers", jokers) % {"count": jokers}
    return format_html("{} ({})", name, said)


def left_html(value: Any, players: Sequence[str]) -> SafeString:
    """Cards left in a hand; none is said so."""
    if value == []:
        return format_html("{}", _("no cards"))
    return cards_html(value, players)


RUMMY_CATALOGUE: Catalogue = {
    **RECORD,
    "record.players": Sentence(
        gettext_lazy(
            "The number of players is outside the ruleset's range or too many for the deck, "
            "or a name is repeated."
        )
    ),
    "record.card": Sentence(gettext_lazy("A card or a joker's designation cannot be read.")),
    "game.incomplete": CATALOGUE["game.incomplete"],
    "game.extra_deal": Sentence(gettext_lazy("This deal is played after the game was over.")),
    "deal.dealer": CATALOGUE["deal.dealer"],
    "deal.cards": CATALOGUE["deal.cards"],
    "deal.unknown_card": Sentence(gettext_lazy("A joker is dealt, but this deck has none.")),
    "deal.duplicate_card": CATALOGUE["deal.duplicate_card"],
    "deal.unfinished": Sentence(gettext_lazy("The turns end before anyone goes out.")),
    "turn.order": Sentence(
        gettext_lazy("It is the turn of %(expected)s, not of %(actual)s."),
        expected=seat_html,
        actual=seat_html,
    ),
    "turn.draw": Sentence(
        gettext_lazy(
            "The draw of %(player)s breaks the rules: a draw on the first turn or none later, "
            "a draw from an empty pile, or a card that is not the top one."
        )
    ),
    "turn.discard": Sentence(
        gettext_lazy(
            "The discard of %(player)s breaks the rules: none, a card not held, or several "
            "cards that are not a going out on jokers only."
        )
    ),
    "turn.after_out": Sentence(
        gettext_lazy(
            "A turn of %(player)s is recorded after a player went out; it is not replayed."
        )
    ),
    "meld.not_held": Sentence(gettext_lazy("%(player)s used a card not held.")),
    "meld.first_round": Sentence(
        gettext_lazy("%(player)s laid cards in the first round, where no action is allowed.")
    ),
    "layoff.before_opening": Sentence(
        gettext_lazy("%(player)s laid off, replaced a joker or joined runs before opening.")
    ),
    "meld.invalid": Sentence(
        gettext_lazy("%(player)s laid down a meld that is neither a run nor a set.")
    ),
    "meld.opening": Sentence(
        gettext_lazy(
            "The opening melds of %(player)s are worth %(actual)s, less than %(expected)s."
        )
    ),
    "layoff.invalid": Sentence(
        gettext_lazy(
            "%(player)s laid off cards that leave no valid meld, or on a meld that is not there."
        )
    ),
    "joker.replace": Sentence(
        gettext_lazy(
            "%(player)s replaced a joker that is not there, or with a card it does not stand for."
        )
    ),
    "joker.kept": Sentence(
        gettext_lazy(
            "%(player)s took a joker by replacement and neither laid it again nor went out "
            "with it that turn."
        )
    ),
    "meld.join": Sentence(
        gettext_lazy(
            "%(player)s joined melds that are not two runs of their own continuing each other."
        )
    ),
    "result.going_out": Sentence(
        gettext_lazy("Going out, by the replay: %(expected)s; the sheet says %(actual)s."),
        expected=going_out_html,
        actual=going_out_html,
    ),
    "result.left": Sentence(
        gettext_lazy("%(player)s has %(expected)s left; the sheet says %(actual)s."),
        expected=left_html,
        actual=left_html,
    ),
    "result.points": CATALOGUE["result.score"],
    "result.running": CATALOGUE["result.running"],
    "result.total": CATALOGUE["result.total"],
}


#: A game played to a loss limit is over when a total reaches it, not after so many deals.
LOSS_LIMIT_UNREACHED = Sentence(
    gettext_lazy("No total reached the loss limit of %(expected)s: the highest is %(actual)s.")
)


def rummy_catalogue(ruleset: Any) -> Catalogue:
    """The rummy's sentences for a report's ruleset (its JSON): under a loss limit, the game
    is unfinished for another reason."""
    options = ruleset.get("options") if isinstance(ruleset, dict) else None
    if isinstance(options, dict) and options.get("loss_limit") is not None:
        return {**RUMMY_CATALOGUE, "game.incomplete": LOSS_LIMIT_UNREACHED}
    return RUMMY_CATALOGUE
