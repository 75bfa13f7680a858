"""A double-dummy solver for the trick-taking family (RULES §4, §5, §10.1–10.4): every hand
visible, an exact search over the remaining cards.

Its first question is the one a claim asks (RULES decision 33): can a seat take every
remaining trick, whatever the others play? The others are one side, which needs a single
trick; the claimer needs them all. So a search node is an "or" at the claimer's turn (one
play that keeps every trick is enough) and an "and" at the others' (every answer must keep
it), and a trick the claimer loses ends the line at once, which makes the search small.
When the claim fails, the search returns a line that beats it: the claimer's first try in
the search's order, and the answer of the others that takes a trick from it (every other
try of the claimer is beaten too).

The search knows the rules through the replay's own pieces, so that a play it calls legal
is one the replay finds nothing wrong with: the suit masks that oblige a seat
(``table.Table``), the joker readings (``jokers.read_declaration``), the trick ranks and the
winner of a trick with jokers (``table.TRICK_RANKS``, ``jokers.joker_winner``).

Four things keep it small. A transposition table of the positions between tricks (the
same hands reached by plays in another order). Equivalent cards: two cards of one suit in
one hand with no card of another hand, or of the trick, between them give the same
answers, so only the higher is tried (a twin of the 104-card deck is not "between" but
equal, and keeps the two apart). A quick proof at the claimer's lead: when every card he
holds is a winner led in any order (``_masters``), nothing is searched. And move ordering:
the others try their strongest play first, and the claimer first the leads they must
follow, since a winner that leaves them free to discard (a suit nobody else holds, a joker
led high) multiplies the defences to search. A node budget bounds the work
deterministically: past it the answer is "not known", never a guess.

It is the first piece of a bid-quality analysis: ``Position`` is a moment between tricks of
any deal, and further questions (the most tricks a seat can take) fit the same search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..cards import CARD_BITS, NAMED_TRUMP, SUIT_MASKS, Declaration, play_code
from .jokers import HIGH, HIGHS, LEAD_HIGHEST, LEAD_LOWEST, PLAIN, joker_winner, read_declaration
from .rulesets import IdenticalCards, Ruleset, TrumpMode
from .table import BITS, NEXT_SUIT, SUIT_OF, TRICK_RANKS, table_for
from .twins import best_face

#: Enough for the last six tricks of four players (``bench/solver.py``), and a bound on the
#: time a replay spends on one claim.
DEFAULT_BUDGET: Final = 100_000

#: A line of plays, built as the search unwinds: ``(code, rest)``, ending in ``()``.
_Line = tuple[()] | tuple[int, "_Line"]
_END: Final[tuple[()]] = ()


@dataclass(frozen=True, slots=True)
class Position:
    """A moment between two tricks of a deal, every hand visible.

    ``hands`` are bitmasks of the cards each seat holds (``cards.py``); ``doubles`` the cards
    a seat holds twice (the 104-card deck), empty masks otherwise. ``trump`` is the deal's
    trump suit (-1: none; under rotating trumps each trick's follows from its lead).
    ``trick`` is the 0-based number of the next trick in the deal: demands restricted to
    the first trick (``joker_demand_first_trick_only``) depend on it.
    """

    ruleset: Ruleset
    hands: tuple[int, ...]
    doubles: tuple[int, ...]
    trump: int
    leader: int
    trick: int


@dataclass(frozen=True, slots=True)
class Answer:
    """The solver's answer to "can ``seat`` take every remaining trick?".

    ``takes_all`` is None when the search went past its budget: the question is open.
    ``line`` is, when it is False, the plays (codes of ``cards.py``, in play order from
    the position's leader) up to the end of the first trick the seat loses.
    """

    takes_all: bool | None
    line: tuple[int, ...]
    nodes: int


class _OutOfBudget(Exception):
    pass


def takes_all(position: Position, seat: int, budget: int = DEFAULT_BUDGET) -> Answer:
    """Whether ``seat`` can take every remaining trick against every defence (double dummy),
    within ``budget`` search nodes."""
    search = _Search(position, seat, budget)
    try:
        found = search.trick(list(position.hands), list(position.doubles), position.leader, 0)
    except _OutOfBudget:
        return Answer(None, (), search.nodes)
    if found is None:
        return Answer(True, (), search.nodes)
    line: list[int] = []
    rest: _Line = found
    while rest:
        code, rest = rest
        line.append(code)
    return Answer(False, tuple(line), search.nodes)


class _Search:
    """One question's search: the claimer, the rules' tables, the transposition table."""

    def __init__(self, position: Position, seat: int, budget: int) -> None:
        ruleset = position.ruleset
        n = len(position.hands)
        table = table_for(ruleset, n)
        self.ruleset = ruleset
        self.n = n
        self.seat = seat
        self.budget = budget
        self.nodes = 0
        self.trump = position.trump
        self.first = position.trick  #: the deal's trick number of the position's first trick
        self.rotating = ruleset.trump is TrumpMode.ROTATING
        self.obliging = table.obliging
        self.trump_obliging = table.trump_obliging
        self.turns = table.turns
        self.jokers = ruleset.joker_mask
        #: Two decks: identical cards can meet in a trick (``identical_cards``).
        self.twins = table.copies > 1
        self.twin_rule = ruleset.identical_cards
        #: Only these demands depend on the trick number (``read_declaration``).
        self.by_trick = ruleset.joker_demand_first_trick_only
        self.readings: dict[tuple[int, bool, bool], list[tuple[int, int, int]]] = {}
        self.seen: dict[tuple[object, ...], _Line | None] = {}
        #: The trick's state after a face card of each suit is led (4: a printed joker's).
        self.lead_states = [self._lead_state(suit) for suit in range(5)]

    def trick(self, hands: list[int], doubles: list[int], leader: int, t: int) -> _Line | None:
        """None if the claimer takes every trick from here, else a line that beats him."""
        if not hands[self.seat]:
            return None
        first = self.by_trick and self.first + t == 0
        key = (*hands, *doubles, leader, first)
        if key in self.seen:
            return self.seen[key]
        if leader == self.seat and self._masters(hands, doubles):
            return None
        found = self.play(hands, doubles, t, self.turns[leader], 0, [], (-1, 0, 0, -1, False))
        self.seen[key] = found
        return found

    def _masters(self, hands: list[int], doubles: list[int]) -> bool:
        """Whether every card the claimer holds takes its trick, led in any order: a quick
        proof of most claims, short of the search.

        So it is when the others hold no joker, each of his face cards is above every card
        of its suit they hold, and nobody can ruff: of a suit other than the trump, whoever
        holds a trump holds at least as many cards of the suit as he does, and so follows
        every time (and never discards one of them, since he follows his other suits too,
        and a lead of trumps he cannot follow leaves him none). Under rotating trumps, where
        each suit has another trump, and when the claimer holds a joker, whose lead high
        lets everybody discard, nobody may hold the trump of a suit he holds.
        """
        seat = self.seat
        jokers = self.jokers
        others = 0
        for s, mask in enumerate(hands):
            if s != seat:
                others |= mask
        if others & jokers:
            return False
        mine = hands[seat]
        if mine & jokers and not self._readings_include_high():
            return False
        face = mine & ~jokers
        strict = self.rotating or bool(mine & jokers)
        for suit in range(4):
            suit_mask = SUIT_MASKS[suit]
            held = face & suit_mask
            if not held:
                continue
            lowest = held & -held
            if others & suit_mask & ~(lowest - 1):
                return False  # a card of the suit as high as his lowest
            trick_trump = NEXT_SUIT[suit] if self.rotating else self.trump
            if trick_trump < 0 or trick_trump == suit:
                continue
            trumps = SUIT_MASKS[trick_trump]
            if strict:
                if others & trumps:
                    return False
                continue
            length = held.bit_count() + (doubles[seat] & suit_mask).bit_count()
            for s, mask in enumerate(hands):
                follows = (mask & suit_mask).bit_count() + (doubles[s] & suit_mask).bit_count()
                if s != seat and mask & trumps and follows < length:
                    return False
        return True

    def _readings_include_high(self) -> bool:
        """Whether a joker may be led ``high`` here (then nothing but a later joker beats it)."""
        card = (self.jokers & -self.jokers).bit_length() - 1
        return any(decl == HIGH for _, decl, _ in self._readings(card, True, False))

    def play(
        self,
        hands: list[int],
        doubles: list[int],
        t: int,
        order: tuple[int, ...],
        k: int,
        plays: list[int],
        state: tuple[int, int, int, int, bool],
    ) -> _Line | None:
        """The ``k``-th play of the trick; ``state`` is (led suit, the mask that obliges to
        follow, the trumps that oblige, the trick's trump, a ``lead_highest`` demand)."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        n = self.n
        if k == n:
            winner = order[self._winner(plays, state)]
            if winner != self.seat:
                return _END
            return self.trick(hands, doubles, winner, t + 1)
        seat = order[k]
        claimer = seat == self.seat
        failed: _Line | None = None
        for code, card, after in self._moves(hands, doubles, t, seat, k, plays, state):
            bit = BITS[card]
            twin = doubles[seat] & bit
            if twin:
                doubles[seat] ^= bit
            else:
                hands[seat] ^= bit
            plays.append(code)
            found = self.play(hands, doubles, t, order, k + 1, plays, after)
            plays.pop()
            if twin:
                doubles[seat] ^= bit
            else:
                hands[seat] ^= bit
            if claimer:
                if found is None:
                    return None
                if failed is None:
                    failed = (code, found)
            elif found is not None:
                return (code, found)
        return failed

    def _moves(
        self,
        hands: list[int],
        doubles: list[int],
        t: int,
        seat: int,
        k: int,
        plays: list[int],
        state: tuple[int, int, int, int, bool],
    ) -> list[tuple[int, int, tuple[int, int, int, int, bool]]]:
        """The legal plays of ``seat`` here, one of each set of equivalent cards, strongest
        first: (play code, card, the trick's state after it)."""
        hand = hands[seat]
        jokers = self.jokers
        others = 0
        for s, mask in enumerate(hands):
            if s != seat:
                others |= mask
        for code in plays:
            others |= BITS[code & CARD_BITS]
        rated: list[tuple[int, int, int, tuple[int, int, int, int, bool]]] = []
        led, follow, trump_mask, trick_trump, demand = state
        # The face cards the rules allow (RULES §4, §5), as the replay's checks have it: the
        # led suit if held (under a demand only its highest), else the trumps if they
        # oblige, else any; the jokers are read one by one below.
        if k == 0:
            faces = hand & ~jokers
        elif hand & follow:
            faces = hand & follow
            if demand:
                faces = 1 << (faces.bit_length() - 1)
        elif hand & trump_mask:
            faces = hand & trump_mask
        else:
            faces = hand & ~jokers
        lead_states = self.lead_states
        ranks = TRICK_RANKS[led][trick_trump]
        previous = -1  # the last face card kept, for equivalence, at ``rated[kept]``
        kept = 0
        while faces:
            low = faces & -faces
            faces ^= low
            card = low.bit_length() - 1
            if k == 0:
                after = lead_states[SUIT_OF[card]]
                entry = (card % 13, card, card, after)
            else:
                entry = (ranks[card], card, card, state)
            if (
                previous >= 0
                and SUIT_OF[previous] == SUIT_OF[card]
                and not others & ((low << 1) - BITS[previous])
            ):
                rated[kept] = entry  # equivalent: the higher stands for both
                previous = card
                continue
            previous = card
            kept = len(rated)
            rated.append(entry)
        held = hand & jokers
        while held:
            low = held & -held
            held ^= low
            card = low.bit_length() - 1
            for code, decl, named in self._readings(card, k == 0, self.first + t == 0):
                if decl == PLAIN:
                    plain = self._face(hand, doubles[seat], card, k, state)
                    if plain is not None:
                        rated.append((self._power(code, plain), code, card, plain))
                    continue
                after = self._joker_lead(decl, named) if k == 0 else state
                rated.append((self._power(code, after), code, card, after))
        if not rated:  # a hand the rules leave without a legal play: any card, as a face card
            rated = [
                (0, c, c, self._lead_state(SUIT_OF[c]) if k == 0 else state)
                for c in range(64)
                if hand >> c & 1
            ]
        if k == 0 and seat == self.seat:
            rated = [(self._lead_power(e[1], others), *e[1:]) for e in rated]
        rated.sort(key=_by_power, reverse=True)
        return [(code, c, after) for _, code, c, after in rated]

    def _face(
        self, hand: int, doubles: int, card: int, k: int, state: tuple[int, int, int, int, bool]
    ) -> tuple[int, int, int, int, bool] | None:
        """The trick's state after ``card`` as a face card, or None if it is not legal here
        (RULES §4: follow suit, must trump; §5: the highest card of a demanded suit)."""
        if k == 0:
            return self._lead_state(SUIT_OF[card])
        led, follow, trump_mask, trick_trump, demand = state
        bit = BITS[card]
        left = hand if doubles & bit else hand ^ bit  # the hand after the play, as the replay
        suit = SUIT_OF[card]
        if suit != led:
            if left & follow or (suit != trick_trump and left & trump_mask):
                return None
        elif demand and left & follow & ~((bit << 1) - 1):
            return None
        return state

    def _lead_state(self, led: int) -> tuple[int, int, int, int, bool]:
        trick_trump = NEXT_SUIT[led] if self.rotating else self.trump
        trumps = self.trump_obliging[trick_trump] if trick_trump >= 0 else 0
        return led, self.obliging[led], trumps, trick_trump, False

    def _joker_lead(self, decl: int, named: int) -> tuple[int, int, int, int, bool]:
        """The trick after a joker lead (RULES §5, §10.1): a demand's suit is led; a joker
        led without one leaves nothing to follow and nothing to trump."""
        if decl in (LEAD_HIGHEST, LEAD_LOWEST):
            led, follow, trumps, trick_trump, _ = self._lead_state(named)
            return led, follow, trumps, trick_trump, decl == LEAD_HIGHEST
        return -1, 0, 0, self.trump, False

    def _readings(self, card: int, leads: bool, first: bool) -> list[tuple[int, int, int]]:
        """The legal ways to play a joker card here: (play code, declaration, named suit),
        one per distinct reading (``*`` and the trump's letter name the same demand)."""
        key = (card, leads, first)
        known = self.readings.get(key)
        if known is None:
            known = []
            seen = set()
            t = 0 if first else 1
            candidates = [play_code(card, Declaration(d)) for d in (1, 2, 3)]
            for d in (Declaration.LEAD_HIGHEST, Declaration.LEAD_LOWEST):
                candidates += [play_code(card, d, named) for named in (NAMED_TRUMP, 1, 2, 3, 4)]
            candidates.append(card)  # silent: high where the variant says so
            for code in candidates:
                decl, named, problem = read_declaration(
                    self.ruleset, code, 0 if leads else 1, t, self.trump
                )
                if not problem and (decl, named) not in seen:
                    seen.add((decl, named))
                    known.append((code, decl, named))
            self.readings[key] = known
        return known

    def _power(self, code: int, state: tuple[int, int, int, int, bool]) -> int:
        """How strong a play is in its trick, for move ordering only."""
        decl = code >> 6 & 7
        card = code & CARD_BITS
        if decl in HIGHS or (decl == 0 and self.jokers >> card & 1):
            return 400
        if decl and decl != PLAIN:
            return -1
        led, _, _, trick_trump, _ = state
        return TRICK_RANKS[led][trick_trump][card]

    def _lead_power(self, code: int, others: int) -> int:
        """How promising a lead of the claimer's is, for move ordering: first a card no
        other hand can beat in its suit, of the suit the others hold most of (they must
        follow, with the fewest free discards to choose among), or a joker's demand of such
        a suit; then the winners that leave the others free to discard (a master of a suit
        nobody else holds, a joker led high); then the rest by rank."""
        decl = code >> 6 & 7
        card = code & CARD_BITS
        if self.jokers >> card & 1 and decl != PLAIN:
            if decl in (LEAD_HIGHEST, LEAD_LOWEST):
                named = code >> 9
                suit = self.trump if named == NAMED_TRUMP else named - 1
                held = (others & SUIT_MASKS[suit]).bit_count() if 0 <= suit < 4 else 0
                return 300 + held if decl == LEAD_HIGHEST and held else -1
            return 140 if decl in HIGHS or not decl else -1
        suit_mask = SUIT_MASKS[SUIT_OF[card]] if SUIT_OF[card] < 4 else 0
        if not others & suit_mask & ~((BITS[card] << 1) - 1):
            held = (others & suit_mask).bit_count()
            return 300 + held if held else 150
        return card % 13

    def _winner(self, plays: list[int], state: tuple[int, int, int, int, bool]) -> int:
        """The place in the trick of the play that takes it, as the replay decides (RULES §4,
        §5, §10.3): ``jokers.joker_winner`` when a joker is played other than plain."""
        led, _, _, trick_trump, _ = state
        jokers = self.jokers
        decls: list[int] | None = None
        highs: list[int] = []
        for k, code in enumerate(plays):
            card = code & CARD_BITS
            if jokers >> card & 1:
                decl = code >> 6 & 7 or Declaration.HIGH
                if decl != PLAIN:
                    decls = decls or [0] * len(plays)
                    decls[k] = decl
                    if decl in HIGHS:
                        highs.append(k)
        if decls is not None:
            return joker_winner(self.ruleset, plays, decls, highs, led, trick_trump, self.twins)
        ranks = TRICK_RANKS[led][trick_trump]
        if self.twins and self.twin_rule is not IdenticalCards.FIRST_WINS:
            return max(
                best_face(plays, None, ranks, self.twin_rule), 0
            )  # all cancelled: the leader
        best = 0
        best_rank = ranks[plays[0] & CARD_BITS]
        for k in range(1, len(plays)):
            rank = ranks[plays[k] & CARD_BITS]
            if rank > best_rank:  # strictly: the first of two twins wins (``first_wins``)
                best, best_rank = k, rank
        return best


def _by_power(item: tuple[int, int, int, tuple[int, int, int, int, bool]]) -> int:
    return item[0]


__all__ = ["DEFAULT_BUDGET", "Answer", "Position", "takes_all"]
