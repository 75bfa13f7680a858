"""The schedule and the dealt hands (RULES §1, §8; FORMAT ``deal.*``, ``play.hands``).

Hands are int bitmasks (``cards.py``); the 104-card deck's second copies live in a second
mask per seat (``doubles``), so a twin is removed from ``doubles`` first. A deal recorded
without hands has the cards each seat played as its hands.
"""

from __future__ import annotations

from ..cards import CARD_BITS, card_name
from ..findings import Code, pointer
from .context import DealContext, count
from .table import EVERY_CARD

#: Hands as bitmasks, and the cards a seat holds twice (``hand_masks``).
Masks = tuple[list[int], list[int]]


def check_schedule(ctx: DealContext) -> None:
    """The deal's cards and kind against the schedule (RULES §8), or the kinds allowed."""
    game = ctx.game
    deal = ctx.deal
    number = ctx.number
    schedule = game.schedule
    if schedule is None:
        if deal.kind not in game.ruleset.kinds_allowed:
            ctx.find(
                Code.DEAL_SCHEDULE,
                f"a {deal.kind} deal is not allowed here",
                expected=sorted(game.ruleset.kinds_allowed),
                actual=deal.kind,
                path=pointer("deals", deal.index),
            )
        return
    if deal.index < len(schedule):
        cards, kind = schedule[deal.index]
        if (deal.cards, deal.kind) != (cards, kind):
            ctx.find(
                Code.DEAL_SCHEDULE,
                f"deal {number} should be {cards} cards {kind}, not {deal.cards} cards {deal.kind}",
                expected={"cards": cards, "kind": kind},
                actual={"cards": deal.cards, "kind": deal.kind},
                path=pointer("deals", deal.index),
            )
    elif deal.index == len(schedule):
        ctx.find(
            Code.GAME_EXTRA_DEAL,
            f"the game has {len(schedule)} deals; deal {number} is one too many",
            expected=len(schedule),
            actual=len(game.record.deals),
            path=pointer("deals", deal.index),
        )


def dealt(ctx: DealContext) -> tuple[Masks, list[int]]:
    """The dealt hands as bitmasks, checked (RULES §1, FORMAT ``deal.*``), and the jokers
    each seat was dealt (``DealResult.jokers_held``, which the stored rows keep).

    The parser summed each hand's bits (``Deal.hand_masks``). Without carries the sum of
    the hands is their union, and a carry (a repeated card) shows as fewer bits than
    cards: such a deal, a hand of the wrong size, a card not in the deck, a card spelt
    otherwise and the 104-card deck (whose repeats are legal) take the finding path.
    """
    game = ctx.game
    deal = ctx.deal
    masks = deal.hand_masks
    hands = deal.written_hands or []
    n = len(hands)
    if masks is not None and game.copies == 1:
        cards = deal.cards
        union = sum(masks)
        if (
            union.bit_count() == cards * n
            and list(map(len, hands)) == [cards] * n
            and not union & ~game.deck_bits
        ):
            jokers = game.ruleset.joker_mask
            return (list(masks), [0] * n), [(mask & jokers).bit_count() for mask in masks]
    cards_dealt = deal.hands or []
    held = [sum(map(hand.count, game.jokers)) for hand in cards_dealt]
    return hand_masks(ctx, cards_dealt, from_plays=False), held


def hand_masks(ctx: DealContext, hands: list[list[int]], from_plays: bool) -> Masks:
    """Check hands (RULES §1, FORMAT ``deal.*``) and read them into bitmasks; ``doubles``
    holds the cards a seat has twice (the 104-card deck)."""
    _check_hands(ctx, hands, from_plays)
    singles = [0] * len(hands)
    doubles = [0] * len(hands)
    for seat, hand in enumerate(hands):
        for card in hand:
            bit = 1 << card
            if singles[seat] & bit:
                doubles[seat] |= bit
            singles[seat] |= bit
    return singles, doubles


def _check_hands(ctx: DealContext, hands: list[list[int]], from_plays: bool) -> None:
    game = ctx.game
    deal = ctx.deal
    counts: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        where = ("deals", deal.index, "tricks" if from_plays else "hands")
        if not from_plays and len(hand) != deal.cards:
            ctx.find(
                Code.DEAL_CARDS,
                f"dealt {count(len(hand), 'card')}, not {deal.cards}",
                seat=seat,
                expected=deal.cards,
                actual=len(hand),
                path=pointer(*where, seat) if not from_plays else None,
            )
        for i, card in enumerate(hand):
            if not game.deck_bits >> card & 1:
                ctx.find(
                    Code.DEAL_UNKNOWN_CARD,
                    f"{card_name(card)} is not in the {game.deck}-card deck",
                    seat=seat,
                    actual=card_name(card),
                    path=pointer(*where) if from_plays else pointer(*where, seat, i),
                )
                continue
            seen = counts.get(card, 0) + 1
            counts[card] = seen
            if seen > game.copies:
                ctx.find(
                    Code.DEAL_DUPLICATE_CARD,
                    f"{card_name(card)} is dealt {seen} times",
                    seat=seat,
                    expected=game.copies,
                    actual=seen,
                    path=pointer(*where) if from_plays else pointer(*where, seat, i),
                )


def masks_from_plays(ctx: DealContext, first: int, left: list[int], winners: list[int]) -> Masks:
    """The hands of a deal recorded without them: the cards each seat played.

    Who played a card follows from the trick winners alone, so a silent pass of the trick
    loop (no checks) yields the winners, and so the seat of every play. The silent pass
    deals every seat every card (``EVERY_CARD``), and each play it replays comes off the
    seat's mask: what is gone at the end (``left``) is what the seat played. When the plays
    repeat no card (bits as many as plays, as in ``dealt``) and the deck holds one of each,
    those are the hands; otherwise the plays are listed per seat, for ``hand_masks`` to find
    the problems.
    """
    game = ctx.game
    n = game.n
    tricks = ctx.deal.tricks or []
    if game.copies == 1:
        singles = [EVERY_CARD ^ mask for mask in left]
        union = sum(singles)
        if union.bit_count() == sum(map(len, tricks)) and not union & ~game.deck_bits:
            return singles, [0] * n
    played: list[list[int]] = [[] for _ in range(n)]
    # An empty trick has no winner and keeps its leader: skip it, not a winner.
    leaders = iter([first, *winners])
    turns = game.turns
    for plays in tricks:
        if plays:
            # ``turns`` has n seats: a longer trick counts its first n plays.
            for seat, code in zip(turns[next(leaders)], plays, strict=False):
                played[seat].append(code & CARD_BITS)
    return hand_masks(ctx, played, from_plays=True)


def check_leftovers(ctx: DealContext, singles: list[int]) -> None:
    """Cards dealt but never played (``play.hands``), for seats not found already: a seat
    with a ``play.not_held`` or ``deal.cards``, or one left with no more cards than the
    plays it lacks in short tricks (those are the ``play.count`` found)."""
    offenders = {
        f.seat
        for f in ctx.game.findings
        if f.deal == ctx.number and f.code in (Code.PLAY_NOT_HELD, Code.DEAL_CARDS)
    }
    missed = ctx.missed or [0] * ctx.game.n
    for seat, left in enumerate(singles):
        if left.bit_count() > missed[seat] and seat not in offenders:
            names = [card_name(c) for c in range(64) if left >> c & 1]
            ctx.find(
                Code.PLAY_HANDS,
                f"never played {', '.join(names)}",
                seat=seat,
                actual=names,
                path=pointer("deals", ctx.deal.index, "hands", seat),
            )


def jokers_played(ctx: DealContext) -> list[int] | None:
    """``DealResult.jokers_held`` of a deal without hands: a played deal's hands are its
    plays; a sheet deal's are unknown."""
    if ctx.deal.tricks is None:
        return None
    held = [0] * ctx.game.n
    for joker in ctx.result.jokers:
        held[joker.seat] += 1
    return held
