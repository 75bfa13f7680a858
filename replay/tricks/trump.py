"""The deal's trump (RULES §6, §10.10, §10.14; FORMAT ``deal.trump``, ``deal.trump_card``).

A wrong claim is found and the replay goes on with the trump the rules give (RULES §10.11).
Under rotating trumps the deal has none: each trick's is the suit after the led one
(``table.NEXT_SUIT``), which the trick loops apply.
"""

from __future__ import annotations

from typing import Final

from ..cards import X1, card_name
from ..findings import Code, pointer
from .context import DealContext, suit_code, suit_name
from .hands import Masks
from .parse import NO_TRUMP
from .rulesets import DealKind, TrumpCardSource, TrumpMode

#: Enum members read from their class cost a descriptor call each in Python 3.11: the ones
#: every deal asks for are read once, here.
_ROTATING: Final = TrumpMode.ROTATING
_DECLARED: Final = TrumpMode.DECLARED
_FIXED: Final = TrumpMode.FIXED
_NO_TRUMP_DEAL: Final = DealKind.NO_TRUMP
_ANY_SOURCE: Final = TrumpCardSource.ANY
_STOCK: Final = TrumpCardSource.STOCK
_DEALER_LAST: Final = TrumpCardSource.DEALER_LAST


def deal_trump(ctx: DealContext, masks: Masks | None) -> int:
    """The deal's trump suit (-1: none); ``masks`` are the dealt hands, None without them."""
    deal = ctx.deal
    ruleset = ctx.game.ruleset
    mode = ruleset.trump
    if mode is _ROTATING or deal.kind is _NO_TRUMP_DEAL:
        if deal.trump_given and deal.trump != NO_TRUMP:
            why = "a no-trump deal has no trump"
            if mode is _ROTATING:
                why = "trumps rotate by trick"
            ctx.find(
                Code.DEAL_TRUMP,
                f"{why}, yet trump is given",
                expected=None,
                actual="SCDH"[deal.trump],
                path=pointer("deals", deal.index, "trump"),
            )
        return NO_TRUMP
    if mode is _FIXED:
        trump = ruleset.fixed_trump
    elif mode is _DECLARED and ruleset.bids_in(deal.kind):
        if not deal.trump_given:
            ctx.find(
                Code.DEAL_TRUMP,
                "the declarer's trump is not given",
                path=pointer("deals", deal.index, "trump"),
            )
        return deal.trump
    elif mode is _DECLARED and deal.trump_given:
        return deal.trump
    else:
        from_card = _trump_from_card(ctx, masks)
        if from_card is None:
            return deal.trump if deal.trump_given else NO_TRUMP
        trump = from_card
    if deal.trump_given and deal.trump != trump:
        ctx.find(
            Code.DEAL_TRUMP,
            f"the trump is {suit_name(trump)}, not {suit_name(deal.trump)}",
            expected=suit_code(trump),
            actual=suit_code(deal.trump),
            path=pointer("deals", deal.index, "trump"),
        )
    return trump


def _trump_from_card(ctx: DealContext, masks: Masks | None) -> int | None:
    """The suit of the turned-up trump card (RULES §6), checked against where it lies."""
    game = ctx.game
    deal = ctx.deal
    card = deal.trump_card
    if card is None:
        # A stated ``trump`` stands in for the card nobody wrote down (RULES §10.14).
        if deal.tricks is not None and not deal.trump_given:
            ctx.find(
                Code.DEAL_TRUMP_CARD,
                "the turned-up trump card is missing",
                path=pointer("deals", deal.index, "trump_card"),
            )
        return None
    if not game.deck_bits >> card & 1:
        ctx.find(
            Code.DEAL_UNKNOWN_CARD,
            f"the trump card {card_name(card)} is not in the {game.deck}-card deck",
            actual=card_name(card),
            path=pointer("deals", deal.index, "trump_card"),
        )
    source = game.ruleset.trump_card_source
    if source is not _ANY_SOURCE and masks is not None:
        everything_dealt = deal.cards * game.n >= game.deck_size
        in_hand = [seat for seat, held in enumerate(masks[0]) if held >> card & 1]
        stock = source is _STOCK
        if source is _DEALER_LAST or (stock and everything_dealt):
            if ctx.dealer not in in_hand:
                ctx.find(
                    Code.DEAL_TRUMP_CARD,
                    f"the trump card {card_name(card)} must be the dealer's last card",
                    seat=ctx.dealer,
                    actual=card_name(card),
                    path=pointer("deals", deal.index, "trump_card"),
                )
        elif stock and in_hand and game.copies == 1:
            ctx.find(
                Code.DEAL_TRUMP_CARD,
                f"the trump card {card_name(card)} comes from the stock but is in a hand",
                seat=in_hand[0],
                actual=card_name(card),
                path=pointer("deals", deal.index, "trump_card"),
            )
    if card >= X1 or game.ruleset.joker_mask >> card & 1:
        return NO_TRUMP
    return card // 13
