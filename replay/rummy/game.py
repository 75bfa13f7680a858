"""The replay of a rummy record (docs/rummy.md "Turns" … "The game"): every turn as
recorded, every rule checked, the points recomputed.

The replay is tolerant (docs/rummy.md "Conventions"): a broken rule is a finding and the
cards still move as the record says, so one report lists every problem.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import chain
from operator import gt, mul
from typing import Any

from ..findings import Severity
from ..report import Audit, Verdict, verdict_of
from .cards import JOKER, KINDS, card_name, names, rank_value
from .findings import Code, Finding, pointer
from .melds import Kind, Meld, kind_of, worth_of
from .parse import Action, Deal, Record, Turn, parse_record
from .report import DealResult, Report
from .rulesets import Ruleset

#: Where a turn's finding sorts within the turn (docs/rummy.md "First error").
_ORDER, _DRAW, _ACTION, _DISCARD = 0, 1, 2, 3
_OWN, _OPENING, _KEPT = 0, 1, 2


def hand_points(hand: list[int], options: dict[str, Any]) -> Any:
    """What a hand left at the end counts (docs/rummy.md "Going out and points"): blackjack
    values, a joker ``joker_value``, and a lone joker ``joker_last_card_value``."""
    jokers = hand[JOKER]
    if jokers == 1 and sum(hand) == 1:
        return options["joker_last_card_value"]
    total: Any = jokers * options["joker_value"]
    if type(total) is int:  # whole numbers add up exactly in any order: the cards at once
        return total + sum(map(mul, hand, CARD_VALUES))
    for card in range(JOKER):  # a fraction: added card by card, the order the sum is defined in
        if hand[card]:
            total += hand[card] * CARD_VALUES[card]
    return total


CARD_VALUES = tuple(rank_value(card % 13) for card in range(JOKER))
NO_CARDS = [0] * KINDS
"""An empty hand's counts: compared with, a hand is found empty at its first card, without
a truth test per count."""


def _counts(cards: Iterable[int]) -> list[int]:
    counts = [0] * KINDS
    for card in cards:
        counts[card] += 1
    return counts


class _Deal:
    """The state of one deal being replayed, and the findings it gives."""

    def __init__(self, game: _Game, number: int, deal: Deal, dealer: int) -> None:
        self.game = game
        self.options = game.ruleset.options
        self.n = len(game.players)
        self.number = number
        self.deal = deal
        self.dealer = dealer
        self.findings: list[Finding] = []
        self.penalties = [0] * self.n
        self.hands: list[list[int]] = []
        self.stock: list[int] | None = None  #: top last, when its order is known
        self.unseen: list[int] = []  #: the stock's counts, when its order is not known
        self.stock_size = 0
        self.pile: list[int] = []
        self.melds: dict[int, Meld] = {}
        self.next_meld = 1
        self.opened = [False] * self.n
        #: Per seat, the turn of its opening and the opening melds' worth, for statistics.
        self.openings: list[tuple[int, int] | None] = [None] * self.n
        self.out: int | None = None
        self.out_turn: int | None = None
        self.out_jokers = 0
        self.turn_findings: list[tuple[int, int, int, Finding]] = []

    # --- findings ----------------------------------------------------------------------

    def add(self, code: Code, message: str, seat: int | None = None, **where: Any) -> None:
        severity = None
        penalty = self.options["violation_penalty"]
        if penalty is not None and code in _PENALISED and seat is not None:
            severity = Severity.PENALTY
            self.penalties[seat] += penalty
        player = None if seat is None else self.game.players[seat]
        self.findings.append(
            Finding(code, message, severity, self.number, seat=seat, player=player, **where)
        )

    def at_turn(
        self,
        key: tuple[int, int, int],
        code: Code,
        message: str,
        seat: int,
        t: int,
        action: int | None = None,
        expected: Any = None,
        actual: Any = None,
    ) -> None:
        parts: list[str | int] = ["deals", self.number - 1, "turns", t - 1]
        if action is not None:
            parts += ["actions", action - 1]
        elif key[0] == _DRAW:
            parts.append("draw")
        elif key[0] == _DISCARD:
            parts.append("discard")
        before = len(self.findings)
        self.add(
            code,
            message,
            seat,
            turn=t,
            action=action,
            expected=expected,
            actual=actual,
            path=pointer(*parts),
        )
        self.turn_findings.append((*key, self.findings.pop(before)))

    # --- the deal's cards --------------------------------------------------------------

    def check_cards(self, hands: list[list[int]]) -> None:
        options, deal = self.options, self.deal
        first = (self.dealer + 1) % self.n
        for seat, hand in enumerate(hands):
            want = options["hand_size"] + (seat == first)
            if len(hand) != want:
                self.add(
                    Code.DEAL_CARDS,
                    f"{self.game.players[seat]} was dealt {len(hand)} cards, not {want}",
                    seat,
                    expected=want,
                    actual=len(hand),
                    path=pointer("deals", self.number - 1, "hands", seat),
                )
        size = self.game.ruleset.size
        dealt = sum(map(len, hands))
        if deal.stock is not None and dealt + len(deal.stock) != size:
            self.add(
                Code.DEAL_CARDS,
                f"the hands and the stock hold {dealt + len(deal.stock)} cards, the deck {size}",
                expected=size,
                actual=dealt + len(deal.stock),
                path=pointer("deals", self.number - 1, "stock"),
            )
        copies = [options["decks"]] * JOKER + [options["jokers"]]
        self.hands = [_counts(hand) for hand in hands]
        seen = _counts(chain(*hands, deal.stock or ()))
        if any(map(gt, seen, copies)):  # a card the deck lacks, or holds fewer of
            self.misdealt(hands, copies)
        if deal.stock is not None:
            self.stock = list(reversed(deal.stock))
            self.stock_size = len(self.stock)
        else:  # what the hands do not hold may be in the stock
            self.unseen = [max(c - held, 0) for c, held in zip(copies, seen, strict=True)]
            self.stock_size = max(size - dealt, 0)

    def misdealt(self, hands: list[list[int]], copies: list[int]) -> None:
        """The findings of cards dealt that the deck lacks, then of those dealt too often,
        each once per hand or stock."""
        places: list[tuple[int | None, list[int]]] = list(enumerate(hands))
        if self.deal.stock is not None:
            places.append((None, self.deal.stock))
        seen = [0] * KINDS
        unknown: list[Finding] = []
        duplicate: list[Finding] = []
        for place, cards in places:
            where: list[str | int] = ["hands", place] if place is not None else ["stock"]
            flagged: set[int] = set()
            for card in cards:
                if copies[card] == 0:
                    if card not in flagged:
                        flagged.add(card)
                        self.add(
                            Code.DEAL_UNKNOWN_CARD,
                            "a joker is dealt, but the deck has none",
                            place,
                            actual="X",
                            path=pointer("deals", self.number - 1, *where),
                        )
                        unknown.append(self.findings.pop())
                    continue
                seen[card] += 1
                if seen[card] > copies[card] and -1 - card not in flagged:
                    flagged.add(-1 - card)
                    self.add(
                        Code.DEAL_DUPLICATE_CARD,
                        f"{card_name(card)} is dealt more often than the deck holds it",
                        place,
                        expected=copies[card],
                        actual=seen[card],
                        path=pointer("deals", self.number - 1, *where),
                    )
                    duplicate.append(self.findings.pop())
        self.findings += unknown + duplicate

    # --- turns -------------------------------------------------------------------------

    def draw(self, seat: int, t: int, source: str, named: int | None) -> None:
        key = (_DRAW, 0, 0)
        card = named
        if source == "discard":
            if not self.pile:
                self.at_turn(key, Code.TURN_DRAW, "a draw from an empty discard pile", seat, t)
            else:
                card = self.top_drawn(self.pile.pop(), named, seat, t, "the discard pile")
        elif self.stock_size == 0:
            self.at_turn(key, Code.TURN_DRAW, "a draw from an empty stock", seat, t)
            self.turn_over()
        else:
            self.stock_size -= 1
            if self.stock is not None:
                card = self.top_drawn(self.stock.pop(), named, seat, t, "the stock")
            elif named is not None:
                if self.unseen[named]:
                    self.unseen[named] -= 1
                else:
                    self.at_turn(
                        key,
                        Code.TURN_DRAW,
                        "the stock cannot hold the card drawn",
                        seat,
                        t,
                        actual=card_name(named),
                    )
            if self.stock_size == 0:
                self.turn_over()
        if card is not None:
            self.hands[seat][card] += 1

    def top_drawn(self, top: int, named: int | None, seat: int, t: int, where: str) -> int:
        """The card a draw of ``top`` gives: the card named, a finding when it is not the
        top (the hand then holds what the record says it drew)."""
        if named is None or named == top:
            return top
        self.at_turn(
            (_DRAW, 0, 0),
            Code.TURN_DRAW,
            f"the card drawn is not the top of {where}",
            seat,
            t,
            expected=card_name(top),
            actual=card_name(named),
        )
        return named

    def turn_over(self) -> None:
        """The pile becomes the stock, unshuffled: the card discarded first on top."""
        self.stock = self.pile[::-1]
        self.stock_size = len(self.stock)
        self.pile = []

    def play(self, turn: Turn, t: int, seat: int) -> None:
        hand = self.hands[seat]
        stock, pile = self.stock, self.pile
        if turn.draw == "stock" and t > 1 and turn.drawn is None and stock and len(stock) > 1:
            self.stock_size -= 1  # the common draw, at once: a known stock's top, not its last
            hand[stock.pop()] += 1
        elif turn.draw == "discard" and t > 1 and pile and turn.drawn in (None, pile[-1]):
            hand[pile.pop()] += 1  # the common draw of the pile's top, named or not
        elif turn.draw is not None:
            if t == 1:
                self.at_turn(
                    (_DRAW, 0, 0),
                    Code.TURN_DRAW,
                    "the first player does not draw on turn 1",
                    seat,
                    t,
                )
            self.draw(seat, t, turn.draw, turn.drawn)
        elif t > 1:
            self.at_turn((_DRAW, 0, 0), Code.TURN_DRAW, "no draw", seat, t)
        owed: list[int] = []
        if turn.actions:
            self.actions(turn, t, seat, hand, owed)
        cards = turn.discard
        if cards is not None and len(cards) == 1 and hand[cards[0]]:  # the common discard
            card = cards[0]
            hand[card] -= 1
            self.pile.append(card)
            if hand == NO_CARDS:
                self.out, self.out_jokers = seat, int(card == JOKER)
                del owed[: self.out_jokers]
        else:
            self.discard(turn, t, seat, hand, owed)
        for i in owed:
            self.at_turn(
                (_ACTION, i, _KEPT),
                Code.JOKER_KEPT,
                "the joker taken by replacement was not laid again nor gone out with",
                seat,
                t,
                i,
            )
        if self.turn_findings:
            self.turn_findings.sort(key=lambda e: e[:3])
            self.findings += [e[3] for e in self.turn_findings]
            self.turn_findings = []

    def actions(self, turn: Turn, t: int, seat: int, hand: list[int], owed: list[int]) -> None:
        """A turn's actions in order, then its opening's worth; ``owed`` gets the
        replacements whose joker is still to be used."""
        is_open = self.opened[seat]
        options = self.options
        first_round = t <= self.n
        worth = 0
        opening_melds: list[int] = []
        for i, action in enumerate(turn.actions, 1):
            held_code = self.held_code(action, hand, first_round, is_open)
            code, message, jokers_laid = self.act(action, seat, hand)
            if held_code is not None:
                self.at_turn((_ACTION, i, _OWN), held_code, HELD_MESSAGES[held_code], seat, t, i)
            elif code is not None:
                self.at_turn((_ACTION, i, _OWN), code, message, seat, t, i)
            if action.kind == "meld" and not is_open:
                meld = self.melds[self.next_meld - 1]
                ace_low = int(options["ace_low_counts_for_opening"])
                worth += worth_of(meld.naturals, meld.stands, meld.kind, ace_low)
                opening_melds.append(i)
                if worth >= options["opening_min"]:
                    is_open = True
            if jokers_laid < 0:
                owed.append(i)
            elif jokers_laid > 0:
                del owed[:jokers_laid]
        if opening_melds:
            if not is_open:
                self.at_turn(
                    (_ACTION, opening_melds[0], _OPENING),
                    Code.MELD_OPENING,
                    f"the opening melds are worth {worth}, less than {options['opening_min']}",
                    seat,
                    t,
                    opening_melds[0],
                    expected=options["opening_min"],
                    actual=worth,
                )
            self.opened[seat] = True
            self.openings[seat] = (t, worth)

    def held_code(
        self, action: Action, hand: list[int], first_round: bool, is_open: bool
    ) -> Code | None:
        """The finding that comes before the action's own: not held, first round, not open."""
        cards = action.cards
        for card in cards:
            if hand[card] < cards.count(card):
                return Code.MELD_NOT_HELD
        if first_round:
            return Code.MELD_FIRST_ROUND
        if action.kind != "meld" and not is_open:
            return Code.LAYOFF_BEFORE_OPENING
        return None

    @staticmethod
    def take(cards: list[int], hand: list[int]) -> None:
        """The held ones of an action's cards leave the hand."""
        for card in cards:
            if hand[card]:
                hand[card] -= 1

    def act(self, action: Action, seat: int, hand: list[int]) -> tuple[Code | None, str, int]:
        """Apply an action to the table → its own finding (code, message) and the jokers it
        laid (−1 for a replacement that took one). An action naming no meld does nothing."""
        max_jokers = self.options["max_jokers_per_meld"]
        cards = action.cards
        naturals = [c for c in cards if c != JOKER] if JOKER in cards else list(cards)
        if action.kind == "meld":
            stands = list(action.stands)
            kind = kind_of(naturals, stands, max_jokers)
            if kind is Kind.SET:  # a set joker's designation binds nothing once checked
                stands = [None] * len(stands)
            self.melds[self.next_meld] = Meld(self.next_meld, seat, naturals, stands, kind)
            self.next_meld += 1
            self.take(cards, hand)
            return (
                (None if kind else Code.MELD_INVALID),
                "the cards are not a valid run or set",
                len(stands),
            )
        if action.kind == "lay_off":
            meld = self.melds.get(action.meld or 0)
            if meld is None:
                return Code.LAYOFF_INVALID, f"there is no meld {action.meld} on the table", 0
            meld.naturals += naturals
            meld.stands += action.stands
            self.take(cards, hand)
            kind = kind_of(meld.naturals, meld.stands, max_jokers)
            if meld.kind is Kind.SET:
                meld.stands = [None] * len(meld.stands)
            if meld.kind is not None and kind is meld.kind:
                return None, "", len(action.stands)
            return (
                Code.LAYOFF_INVALID,
                f"the cards laid off leave meld {meld.number} no valid meld",
                len(action.stands),
            )
        if action.kind == "replace_joker":
            meld = self.melds.get(action.meld or 0)
            card = cards[0]
            if meld is None or not meld.stands:
                what = (
                    f"there is no meld {action.meld} on the table"
                    if meld is None
                    else f"meld {meld.number} holds no joker"
                )
                return Code.JOKER_REPLACE, what, 0
            index = meld.joker_for(card)
            meld.stands.pop(0 if index is None else index)
            meld.naturals.append(card)
            self.take(cards, hand)
            hand[JOKER] += 1
            if index is not None and card != JOKER:
                return None, "", -1
            return (
                Code.JOKER_REPLACE,
                f"{card_name(card)} is not the card a joker of meld {meld.number} stands for",
                -1,
            )
        meld = self.melds.get(action.meld or 0)
        target = self.melds.get(action.to or 0)
        if meld is None or target is None or meld is target:
            return Code.MELD_JOIN, "there are not two such melds on the table", 0
        ok = meld.owner == seat and meld.kind is Kind.RUN and target.kind is Kind.RUN
        target.naturals += meld.naturals
        target.stands += meld.stands
        del self.melds[meld.number]
        if ok and kind_of(target.naturals, target.stands, max_jokers) is Kind.RUN:
            return None, "", 0
        return Code.MELD_JOIN, f"meld {meld.number} cannot be joined to meld {target.number}", 0

    def discard(self, turn: Turn, t: int, seat: int, hand: list[int], owed: list[int]) -> None:
        """Any discard but the common one of a single held card."""
        key = (_DISCARD, 0, 0)
        cards = turn.discard
        if turn.actions and hand == NO_CARDS:
            self.at_turn(
                key,
                Code.TURN_DISCARD,
                "the hand was emptied by actions: every turn ends with a discard",
                seat,
                t,
            )
            if cards:
                self.pile += cards
            self.out, self.out_jokers = seat, 0
            return
        if cards is None:
            self.at_turn(key, Code.TURN_DISCARD, "no discard", seat, t)
            return
        held = all(hand[c] >= cards.count(c) for c in set(cards))
        jokers = all(c == JOKER for c in cards)
        if not held:
            self.at_turn(key, Code.TURN_DISCARD, "a discarded card is not held", seat, t)
        elif len(cards) > 1 and not (jokers and sum(hand) == len(cards)):
            self.at_turn(
                key,
                Code.TURN_DISCARD,
                "only a going-out discard of jokers is more than one card",
                seat,
                t,
            )
        for card in cards:
            if hand[card]:
                hand[card] -= 1
        self.pile += cards
        if hand == NO_CARDS:
            self.out = seat
            self.out_jokers = len(cards) if jokers and held else 0
            del owed[: self.out_jokers]

    # --- the result ----------------------------------------------------------------------

    def points(self) -> list[Any]:
        if self.out is None:
            return [0] * self.n
        options = self.options
        points: list[Any] = []
        for seat in range(self.n):
            if seat == self.out:
                base = (
                    self.game.ruleset.jokers_out(self.out_jokers)
                    if self.out_jokers
                    else options["going_out"]
                )
            else:
                base = hand_points(self.hands[seat], options)
            points.append(base + self.penalties[seat] if self.penalties[seat] else base)
        return points


_PENALISED = frozenset(c for c in Code if c.penalised)


HELD_MESSAGES = {
    Code.MELD_NOT_HELD: "the action uses a card the player does not hold",
    Code.MELD_FIRST_ROUND: "no action is allowed in the first round",
    Code.LAYOFF_BEFORE_OPENING: "a lay-off, replacement or join before the player has opened",
}


def census(deal: _Deal) -> list[int]:
    """Every card of a deal being replayed, counted over the hands, the stock, the pile and
    the table: a legal deal keeps the deck's counts at every turn."""
    counts = [0] * KINDS
    for hand in deal.hands:
        for card in range(KINDS):
            counts[card] += hand[card]
    if deal.stock is not None:
        stock = deal.stock
    else:
        stock = [card for card in range(KINDS) for _ in range(deal.unseen[card])]
    for meld in deal.melds.values():
        stock = stock + meld.cards()
    for card in stock + deal.pile:
        counts[card] += 1
    return counts


#: Called after every replayed turn with the deal's state (property tests count its cards).
Observer = Callable[[_Deal], None]


class _Game:
    """A record being replayed: the deals in order, the running totals, the game's end."""

    def __init__(self, record: Record, observe: Observer | None = None) -> None:
        self.observe = observe
        self.record = record
        self.ruleset: Ruleset = record.ruleset
        self.players = record.players
        self.findings: list[Finding] = []
        self.deals: list[DealResult] = []

    def run(self) -> Report:
        n = len(self.players)
        ruleset = self.ruleset
        limit = ruleset.options["loss_limit"]
        length = ruleset.deals_for(n)
        running: list[Any] = [0] * n
        over = False
        for d, deal in enumerate(self.record.deals):
            number = d + 1
            rotation = (self.record.first_dealer + d) % n
            # A wrong stated dealer is one finding: the deal is replayed as dealt, by him.
            state = _Deal(self, number, deal, rotation if deal.dealer is None else deal.dealer)
            if over and not any(f.code is Code.GAME_EXTRA_DEAL for f in self.findings):
                state.add(
                    Code.GAME_EXTRA_DEAL,
                    f"deal {number} is played after the game was over",
                    path=pointer("deals", d),
                )
            if deal.dealer is not None and deal.dealer != rotation:
                state.add(
                    Code.DEAL_DEALER,
                    f"the dealer is seat {rotation} by the rotation",
                    expected=rotation,
                    actual=deal.dealer,
                    path=pointer("deals", d, "dealer"),
                )
            result = self.full(state) if deal.turns is not None else self.sheet(state)
            running = [a + b for a, b in zip(running, result.points, strict=True)]
            result.running = running
            self.claims(state, result)
            self.findings += state.findings
            self.deals.append(result)
            over = over or (
                any(t >= limit for t in running) if limit is not None else number >= length
            )
        totals = self.record.totals
        if totals is not None:
            for seat, (want, claimed) in enumerate(zip(running, totals, strict=True)):
                if want != claimed:
                    self.findings.append(
                        Finding(
                            Code.RESULT_TOTAL,
                            f"the total of {self.players[seat]} is {want}",
                            None,
                            seat=seat,
                            player=self.players[seat],
                            expected=want,
                            actual=claimed,
                            path=pointer("totals", seat),
                        )
                    )
        if not over:
            if limit is not None:
                message = f"no total reached the loss limit {limit}"
                expected, actual = limit, max(running)
            else:
                message = f"{len(self.deals)} of {length} deals played"
                expected, actual = length, len(self.deals)
            self.findings.append(
                Finding(Code.GAME_INCOMPLETE, message, expected=expected, actual=actual)
            )
        low = min(running)
        audits = {d.audit for d in self.deals}
        audit = audits.pop() if len(audits) == 1 else Audit.MIXED if audits else Audit.FULL
        return Report(
            verdict_of(self.findings),
            audit,
            ruleset,
            self.findings,
            self.deals,
            running,
            [s for s in range(n) if running[s] == low],
            self.players,
        )

    def full(self, state: _Deal) -> DealResult:
        deal = state.deal
        state.check_cards(deal.hands or [[] for _ in range(state.n)])
        turns = deal.turns or []
        last = state.dealer
        for t, turn in enumerate(turns, 1):
            expected = (last + 1) % state.n
            seat = expected if turn.seat is None else turn.seat
            if seat != expected:
                state.at_turn(
                    (_ORDER, 0, 0),
                    Code.TURN_ORDER,
                    f"it is the turn of {self.players[expected]}",
                    seat,
                    t,
                    expected=expected,
                    actual=seat,
                )
            last = seat
            if state.out is not None:
                state.at_turn(
                    (_ORDER, 0, 1), Code.TURN_AFTER_OUT, "a turn after a player went out", seat, t
                )
                state.findings += [e[3] for e in state.turn_findings]
                state.turn_findings = []
                continue
            state.play(turn, t, seat)
            if state.out is not None:
                state.out_turn = t
            if self.observe is not None:
                self.observe(state)
        if state.out is None:
            state.add(
                Code.DEAL_UNFINISHED,
                "the turns end before anyone goes out",
                path=pointer("deals", state.number - 1, "turns"),
            )
        left = [names(hand) for hand in state.hands]
        return DealResult(
            state.number,
            state.dealer,
            state.out,
            state.out_jokers,
            left,
            state.points(),
            [],
            Audit.FULL,
            len(turns),
            state.out_turn,
            state.openings,
        )

    def sheet(self, state: _Deal) -> DealResult:
        """A deal of a sheet: the going out and the hands left are counted, the rest is as
        claimed."""
        deal = state.deal
        out = deal.out
        jokers = deal.out_jokers or 0
        points: list[Any] = []
        for seat in range(state.n):
            claimed = deal.points[seat] if deal.points is not None else 0
            if seat == out:
                points.append(
                    self.ruleset.jokers_out(jokers) if jokers else self.ruleset.options["going_out"]
                )
            elif deal.left is not None:
                points.append(hand_points(_counts(deal.left[seat]), self.ruleset.options))
            else:
                points.append(claimed)
        left = None if deal.left is None else [names(_counts(h)) for h in deal.left]
        state.out, state.out_jokers = out, jokers
        return DealResult(state.number, state.dealer, out, jokers, left, points, [], Audit.SHEET)

    def claims(self, state: _Deal, result: DealResult) -> None:
        deal, d = state.deal, state.number - 1
        full = deal.turns is not None
        if (full and deal.out is not None) or deal.out_jokers is not None:
            claimed = (deal.out, deal.out_jokers or 0)
            if claimed != (result.out, result.out_jokers):
                state.add(
                    Code.RESULT_GOING_OUT,
                    "the claimed going out differs from the replay",
                    expected={"out": result.out, "out_jokers": result.out_jokers},
                    actual={"out": claimed[0], "out_jokers": claimed[1]},
                    path=pointer("deals", d, "out"),
                )
        if deal.left is not None:
            for seat, cards in enumerate(deal.left):
                # Counts compared, not codes: a hand's codes are written only for a finding.
                if seat == result.out:
                    want = [0] * KINDS
                elif full:
                    want = state.hands[seat]
                else:
                    continue
                mine = _counts(cards)
                if want != mine:
                    state.add(
                        Code.RESULT_LEFT,
                        f"the cards left to {self.players[seat]} differ",
                        seat,
                        expected=names(want),
                        actual=names(mine),
                        path=pointer("deals", d, "left", seat),
                    )
        for field, what, want_list, claimed_list, code in (
            ("points", "points of the deal", result.points, deal.points, Code.RESULT_POINTS),
            ("running", "running total", result.running, deal.running, Code.RESULT_RUNNING),
        ):
            if claimed_list is None:
                continue
            for seat, (want, claimed) in enumerate(zip(want_list, claimed_list, strict=True)):
                if want != claimed:
                    state.add(
                        code,
                        f"the {what} of {self.players[seat]}: {want}",
                        seat,
                        expected=want,
                        actual=claimed,
                        path=pointer("deals", d, field, seat),
                    )


def replay(record: Record, observe: Observer | None = None) -> Report:
    return _Game(record, observe).run()


def malformed(findings: list[Finding], ruleset: Ruleset | None) -> Report:
    return Report(Verdict.MALFORMED, Audit.FULL, ruleset, findings, [], None, [])


def verify(
    obj: Any, stored_rulesets: Mapping[str, Any] | None = None, observe: Observer | None = None
) -> Report:
    """A decoded ``raspis-rummy/1`` record → its report. Never raises on bad input."""
    record, ruleset, findings = parse_record(obj, stored_rulesets)
    if record is None:
        return malformed(findings, ruleset)
    return replay(record, observe)
