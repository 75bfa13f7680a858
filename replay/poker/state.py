"""The table of one poker hand at each of its moments, for a replay that steps through it.

A moment is (stage, action) as players count and as findings are placed: action 0 is the
stage's start (its cards dealt, its blinds posted), action ``k`` the table after the
stage's ``k``-th written action (an ignored one included, so that every finding has its
moment). The hand's end, the showdown and the pots paid, is the moment ``(None, None)``.

The states come from the replay itself (``game.verify`` with an observer that watches one
hand), never from the record's claims, so the table shows what the rules make of it.
Cards are shown as the table saw them: the club game's first card and the casino seats'
cards face down, the casino dealer's four down cards unseen until the end, and ``??``
wherever the record does not know a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import card_name
from .casino import FOLD, CasinoHand
from .club import ClubHand
from .game import verify
from .parse import UNSEEN, Action
from .report import HandResult, PotResult

Moment = tuple[int | None, int | None]  #: stage, action; (None, None) the hand's end
END: Moment = (None, None)


@dataclass(frozen=True, slots=True)
class Card:
    """A card as the table shows it: its code (``??`` unseen) and whether it lies face up."""

    name: str
    up: bool


@dataclass(frozen=True, slots=True)
class SeatState:
    seat: int
    dealt: bool  #: dealt into the hand (not sitting out)
    folded: int | None  #: the stage it folded at
    cards: tuple[Card, ...]
    stack: int  #: what it has left
    bet: int  #: what it put in this stage (casino: its call)
    paid: int  #: everything it put in this hand (antes, blinds, bets; casino: fees too)
    last: Action | None  #: its last written action in this stage
    #: At the end: its category at the showdown, its net, whether it won.
    category: str | None = None
    net: int | None = None
    won: bool = False

    @property
    def all_in(self) -> bool:
        return self.dealt and self.folded is None and self.stack <= 0 and self.paid > 0


@dataclass(frozen=True, slots=True)
class HandState:
    hand: int  #: 1-based
    stage: int | None
    action: int | None
    casino: bool
    dealer: int | None  #: the club game's dealing seat
    seats: tuple[SeatState, ...]
    pot: int  #: the chips in the middle (casino: antes and calls against the house)
    current: int  #: the bet to match in this stage (club)
    acted: Action | None  #: the written action this moment follows
    joker: str | None = None  #: the hand's drawn joker (J-poker), a card's code
    dealer_cards: tuple[Card, ...] | None = None  #: the casino dealer's
    dealer_rank: str | None = None
    dealer_qualifies: bool | None = None
    pots: tuple[PotResult, ...] | None = None  #: at the club game's end

    @property
    def end(self) -> bool:
        return self.stage is None


@dataclass(frozen=True, slots=True)
class HandMoments:
    """Every moment of one hand in order, its end last."""

    hand: int
    hands: int  #: the record's number of hands
    states: tuple[HandState, ...]

    @property
    def moments(self) -> list[Moment]:
        return [(s.stage, s.action) for s in self.states]

    def at(self, moment: Moment) -> HandState | None:
        return next((s for s in self.states if (s.stage, s.action) == moment), None)

    def find(self, stage: int | None, action: int | None) -> HandState | None:
        """The state at a place as findings and addresses give it: without ``stage`` the
        hand's end, without ``action`` the stage's last moment (where a seat that never
        acted was missed); None when the hand has no such place."""
        if stage is None:
            return self.states[-1]
        if action is None:
            return next((s for s in reversed(self.states) if s.stage == stage), None)
        return self.at((stage, action))


def hand_moments(obj: Any, hand: int) -> HandMoments | None:
    """The moments of hand ``hand`` (1-based) of a decoded record; None when the record is
    malformed (nothing is replayed) or has no such hand."""
    states: list[HandState] = []
    watched: list[CasinoHand | ClubHand] = []

    def observe(number: int, replay: CasinoHand | ClubHand) -> None:
        if number != hand:
            return
        watched.append(replay)

        def watch(stage: int, action: int) -> None:
            states.append(_state(hand, replay, stage, action, None))

        replay.watch = watch

    report = verify(obj, observe=observe)
    if not watched or len(report.hands) < hand:
        return None
    states.append(_state(hand, watched[0], None, None, report.hands[hand - 1]))
    return HandMoments(hand, len(report.hands), tuple(states))


def _cards(held: Sequence[int], up: Sequence[bool]) -> tuple[Card, ...]:
    return tuple(
        Card("??" if c == UNSEEN else card_name(c), face) for c, face in zip(held, up, strict=True)
    )


def _joker(card: int | None) -> str | None:
    return None if card is None or card == UNSEEN else card_name(card)


def _written(replay: CasinoHand | ClubHand, stage: int | None, action: int | None) -> list[Action]:
    """The stage's written actions up to the moment (all of them at a stage's end)."""
    stages = replay.hand.stages
    if stage is None or not 1 <= stage <= len(stages):
        return []
    return stages[stage - 1][: action if action is not None else None]


def _last(actions: list[Action], seat: int) -> Action | None:
    return next((a for a in reversed(actions) if a.seat == seat), None)


def _state(
    hand: int,
    replay: CasinoHand | ClubHand,
    stage: int | None,
    action: int | None,
    result: HandResult | None,
) -> HandState:
    if isinstance(replay, ClubHand):
        return _club(hand, replay, stage, action, result)
    return _casino(hand, replay, stage, action, result)


def _club(
    hand: int, h: ClubHand, stage: int | None, action: int | None, result: HandResult | None
) -> HandState:
    actions = _written(h, stage, action)
    end = result is not None
    seats = []
    for seat in range(h.n):
        held = h.held[seat]
        # The first card lies face down; at a showdown every live seat shows its five.
        shows = end and not h.over and h.folded[seat] is None and h.inn[seat]
        up = [shows or i > 0 for i in range(len(held))]
        seats.append(
            SeatState(
                seat,
                h.inn[seat],
                h.folded[seat],
                _cards(held, up),
                result.stacks[seat] if result else h.stack[seat],
                0 if end else h.put[seat],
                h.contrib[seat],
                _last(actions, seat),
                result.ranks[seat] if result else None,
                result.net[seat] if result else None,
                bool(result and seat in result.winners),
            )
        )
    return HandState(
        hand,
        stage,
        action,
        False,
        h.dealer,
        tuple(seats),
        # At the end an uncalled bet has gone back: the pots hold the rest.
        sum(p.amount for p in result.pots or ()) if result else sum(h.contrib),
        0 if end else h.current,
        actions[-1] if actions and action else None,
        joker=_joker(h.hand.joker),
        pots=tuple(result.pots or ()) if result else None,
    )


def _casino(
    hand: int, h: CasinoHand, stage: int | None, action: int | None, result: HandResult | None
) -> HandState:
    actions = _written(h, stage, action)
    end = result is not None
    seats = []
    for seat in range(h.n):
        held = h.held[seat] if seat < len(h.held) else []
        bet = h.paid[seat] - h.fees[seat]
        seats.append(
            SeatState(
                seat,
                h.playing[seat],
                1 if h.decided[seat] == FOLD else None,
                _cards(held, [end and h.decided[seat] != FOLD] * len(held)),
                result.stacks[seat] if result else h.stacks[seat] - h.antes[seat] - h.paid[seat],
                bet,
                h.antes[seat] + h.paid[seat],
                _last(actions, seat),
                result.ranks[seat] if result else None,
                result.net[seat] if result else None,
                bool(result and seat in result.winners),
            )
        )
    dealt = h.hand.dealer_cards
    dealer = None
    if dealt is not None:
        # The dealer's fifth card is dealt face up; the others are turned at the end.
        shown = [c if end or i == 4 else UNSEEN for i, c in enumerate(dealt[:5])]
        dealer = _cards(shown, [end or i == 4 for i in range(len(shown))])
    pot = sum(h.antes[s] + h.paid[s] - h.fees[s] for s in range(h.n))
    return HandState(
        hand,
        stage,
        action,
        True,
        None,
        tuple(seats),
        pot,
        0,
        actions[-1] if actions and action else None,
        dealer_cards=dealer,
        dealer_rank=result.dealer_rank if result else None,
        dealer_qualifies=result.dealer_qualifies if result else None,
        joker=_joker(h.hand.joker),
    )


__all__ = ["END", "Card", "HandMoments", "HandState", "Moment", "SeatState", "hand_moments"]
