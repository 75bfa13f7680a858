"""The simulator's rules oracle: which plays are legal and who takes a trick (RULES §4, §5,
§10.1–10.4), decided on its own, independently of the replay's loops (``tricks/play.py``).

Cards are read by the simulator's own helpers as well; it shares with the replay only the
ruleset tables and the scoring functions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from ..cards import Deck
from ..scores import Number
from ..tricks.rulesets import DealKind, DemandSuits, IdenticalCards, Ruleset

SUITS: Final = "SCDH"
RANKS: Final = "23456789TJQKA"
X1: Final = 52
X2: Final = 53
STAR: Final = 4  #: a lead demand naming "trumps" (``*``)


class Call(StrEnum):
    """How a card is played: as itself, or a joker's declaration as records name it (RULES
    §5; the replay reads these names into ``cards.Declaration``)."""

    FACE = ""  #: an ordinary card
    HIGH = "high"
    LOW = "low"
    PLAIN = "plain"  #: a joker as its face card
    LEAD_HIGHEST = "lead_highest"
    LEAD_LOWEST = "lead_lowest"


LEADS: Final = (Call.LEAD_HIGHEST, Call.LEAD_LOWEST)
HIGHS: Final = (Call.HIGH, Call.LEAD_HIGHEST)

Json = dict[str, Any]


def name_of(card: int) -> str:
    if card >= X1:
        return f"X{card - X1 + 1}"
    return RANKS[card % 13] + SUITS[card // 13]


def card_of(name: str) -> int:
    if name in ("X1", "X2"):
        return X1 if name == "X1" else X2
    return SUITS.index(name[1]) * 13 + RANKS.index(name[0])


def suit_of(card: int) -> int:
    return card // 13 if card < X1 else -1


def rank_of(card: int) -> int:
    return card % 13 if card < X1 else -1


def deck_of(deck: Deck) -> list[int]:
    """The cards of a deck, RULES §1: 36 (6 … A), 52, 54 (with X1, X2), 104 (52 twice)."""
    if deck is Deck.SHORT:
        return [s * 13 + r for s in range(4) for r in range(4, 13)]
    full = list(range(52))
    if deck is Deck.JOKERS:
        return [*full, X1, X2]
    return full * deck.copies


@dataclass(frozen=True, slots=True)
class Play:
    """One play: a card and, for a joker, how it is played (``""`` for a face card)."""

    card: int
    decl: Call = Call.FACE
    named: int = -1  #: a lead demand's suit 0…3, or ``STAR`` for "trumps"

    @property
    def face(self) -> bool:
        """Whether the play counts as its face card (an ordinary card, or a joker ``plain``)."""
        return self.decl in (Call.FACE, Call.PLAIN)


@dataclass(slots=True)
class Deal:
    index: int
    cards: int
    kind: DealKind
    dealer: int
    hands: list[list[int]]
    trump: int = -1  #: the deal's trump suit, -1 for none (and under rotating trumps)
    trump_card: int | None = None
    bids: list[int] | None = None
    blind: list[bool] = field(default_factory=list)
    written_bids: list[Any] = field(default_factory=list)
    calls: list[list[int]] | None = None
    declarer: int | None = None
    taken: list[int] = field(default_factory=list)
    tricks: list[Any] = field(default_factory=list)
    scores: list[Number] = field(default_factory=list)
    claim: int | None = None  #: the seat that claimed the tricks after ``tricks``


def sort_key(card: int) -> tuple[int, int]:
    return (suit_of(card), rank_of(card)) if card < X1 else (4, card)


#: The most plays a bot's search of a claim tries (``Rules.claim_answer``): past it the bot is
#: not sure, and does not claim. A count, so that a seed makes the same game everywhere.
CLAIM_SEARCH: Final = 20_000


class _Unsure(Exception):
    """A claim's search went past ``CLAIM_SEARCH``."""


class Rules:
    """The rules as the simulated game applies them to its current deal."""

    r: Ruleset
    n: int
    rng: random.Random
    deck: list[int]
    deck_name: Deck
    jokers: frozenset[int]
    declarations: tuple[Call, ...]
    trump: int  #: the current deal's trump
    rotating: bool
    #: Plays a claim's search may still try (``claim_answer``); None: no bound.
    _search_left: int | None = None

    def _card_trump(self, card: int | None) -> int:
        if card is None or card in self.jokers or card >= X1:
            return -1
        return suit_of(card)

    def _context(self, plays: list[Play]) -> tuple[int, int, bool]:
        """The led suit (-1: none), the trick's trump (-1: none), and whether a
        ``lead_highest`` demand is on (RULES §4, §5, §10.1, §10.4)."""
        if not plays:
            return -1, -1, False
        first = plays[0]
        if first.face:
            led = suit_of(first.card)
        elif first.decl in LEADS:
            led = self.trump if first.named == STAR else first.named
        else:
            led = -1
        trump = self.trump
        if self.rotating:
            trump = (led + 1) % 4 if led >= 0 else -1
        return led, trump, first.decl == Call.LEAD_HIGHEST

    def _options(self, hand: list[int], plays: list[Play], t: int) -> list[Play]:
        """Every legal play from ``hand`` into the trick so far (RULES §4, §5, §10)."""
        led, trump, demand = self._context(plays)
        leading = not plays
        first_only = self.r.joker_demand_first_trick_only
        options: list[Play] = []
        for card in sorted(set(hand)):
            if card not in self.jokers:
                if leading or self._face_ok(card, hand, led, trump, demand):
                    options.append(Play(card))
                continue
            for decl in self.declarations:
                if decl == Call.HIGH or (decl == Call.LOW and not leading):
                    options.append(Play(card, decl))
                elif decl == Call.PLAIN and card < X1:
                    if leading or (not demand and self._face_ok(card, hand, led, trump, False)):
                        options.append(Play(card, decl))
                elif decl in LEADS and leading and (t == 0 or not first_only):
                    options.extend(Play(card, decl, s) for s in self._nameable(decl))
            if not self.declarations and self.r.joker_silent_high:
                options.append(Play(card, Call.HIGH))
        if not options:
            raise ValueError(f"{self.r.preset}: the ruleset leaves no legal play")
        return options

    def _face_ok(self, card: int, hand: list[int], led: int, trump: int, demand: bool) -> bool:
        if led < 0:
            return True
        suit = suit_of(card)
        if self._holds(hand, led):
            if suit != led:
                return False
            top = max(rank_of(c) for c in hand if suit_of(c) == led and c not in self.jokers)
            return not demand or rank_of(card) >= top
        if self.r.must_trump and 0 <= trump != led and self._holds(hand, trump):
            return suit == trump
        return True

    def _holds(self, hand: list[int], suit: int) -> bool:
        """Whether the hand holds a card of the suit; a joker never counts (RULES §10.2)."""
        return any(suit_of(c) == suit and c not in self.jokers for c in hand)

    def _nameable(self, decl: Call) -> list[int]:
        """The suits a lead demand may name: RULES §5, ``lead_highest_suits``."""
        star = [STAR] if self.trump >= 0 and not self.rotating else []
        if decl == Call.LEAD_LOWEST:
            return [0, 1, 2, 3]
        mode = self.r.lead_highest_suits
        if mode is DemandSuits.TRUMP:
            return star
        if mode is DemandSuits.SUIT:
            return [s for s in range(4) if s != self.trump]
        return [0, 1, 2, 3, *star]

    def claim_answer(
        self, hands: list[list[int]], claimer: int, leader: int, t: int
    ) -> bool | None:
        """``_takes_all`` within ``CLAIM_SEARCH`` plays tried; None past it. The bots claim
        only a proved True, and the ``bad_claim`` corruption picks only a proved False."""
        self._search_left = CLAIM_SEARCH
        try:
            return self._takes_all(hands, claimer, leader, t)
        except _Unsure:
            return None
        finally:
            self._search_left = None

    def _takes_all(self, hands: list[list[int]], claimer: int, leader: int, t: int) -> bool:
        """Whether ``claimer`` takes every remaining trick whatever the others play, every hand
        visible: every legal play of every seat is tried (the claimer needs one that keeps
        every trick, the others any that takes one), with nothing pruned but a line that has
        lost a trick. The simulator's own check of a claim, for the bots' claims."""
        if not hands[claimer]:
            return True
        return self._claim_line(hands, claimer, leader, t, [])

    def _claim_line(
        self, hands: list[list[int]], claimer: int, leader: int, t: int, plays: list[Play]
    ) -> bool:
        if self._search_left is not None:
            self._search_left -= 1
            if self._search_left < 0:
                raise _Unsure
        k = len(plays)
        if k == self.n:
            winner = (leader + self._winner(plays)) % self.n
            return winner == claimer and self._takes_all(hands, claimer, winner, t + 1)
        seat = (leader + k) % self.n
        hand = hands[seat]

        def holds(play: Play) -> bool:
            hand.remove(play.card)
            plays.append(play)
            try:
                return self._claim_line(hands, claimer, leader, t, plays)
            finally:
                plays.pop()
                hand.append(play.card)

        options = self._options(hand, plays, t)
        return any(map(holds, options)) if seat == claimer else all(map(holds, options))

    def _winner(self, plays: list[Play]) -> int:
        """The index of the play that takes the trick (RULES §4, §5, §10.3), so far."""
        led, trump, _ = self._context(plays)
        first = plays[0]
        highs = [k for k, p in enumerate(plays) if p.decl in HIGHS]
        if (
            highs
            and highs[0] == 0
            and first.decl == Call.LEAD_HIGHEST
            and self.r.demand_to_highest_trump
            and 0 <= trump != led
            and any(p.face and suit_of(p.card) == trump for p in plays[1:])
        ):
            highs = highs[1:]
        if highs:
            return highs[-1] if self.r.later_joker_wins else highs[0]
        # A lead_lowest joker that nobody beat keeps the trick, and so does the leader when
        # identical cards cancel every card that could take it.
        best, best_key = 0, (-1, -1)
        rule = self.r.identical_cards
        faces = [p.card for p in plays if p.face]
        for k, p in enumerate(plays):
            if not p.face or (rule is IdenticalCards.CANCEL and faces.count(p.card) > 1):
                continue
            suit = suit_of(p.card)
            if suit == trump:
                key = (2, rank_of(p.card))
            elif suit == led:
                key = (1, rank_of(p.card))
            else:
                continue
            if key > best_key or (rule is IdenticalCards.LAST_WINS and key == best_key):
                best, best_key = k, key  # strictly, by default: the first of two twins wins
        return best
