"""One hand of the club game (docs/poker.md §4): antes and blinds, the five stages of
dealing, exchanging and no-limit betting, then the pots, main pot first, to the best hands.

A betting round is replayed as the table plays it: each action is checked against the
seat whose turn it is and what it may do, reported as the first rule it breaks, then
applied as docs/poker-format.md's conventions say, so the hand always goes on.
"""

from __future__ import annotations

from collections.abc import Callable

from .findings import PokerCode
from .hands import Made
from .parse import UNSEEN, Act, Action, Hand
from .report import HandResult, PotResult
from .rulesets import Ruleset
from .table import Judge, Log, Seen, check_claims, names, pot_layers, showdown

#: A rule an action breaks: its code, the message, what was expected, what was written.
Problem = tuple[PokerCode, str, object, object]


def exchange_size(low: int, high: int, count: int, new: int) -> Problem | None:
    """What is wrong with the size of an exchange of ``count`` cards for ``new`` ones, when
    the rules allow ``low``…``high``: the casino and the club game read it alike."""
    if not low <= count <= high:
        return (
            PokerCode.EXCHANGE_COUNT,
            f"an exchange is of {low}…{high} cards",
            [low, high],
            count,
        )
    if new != count:
        return (PokerCode.EXCHANGE_COUNT, "as many new cards as discarded ones", count, new)
    return None


ORDER = (
    PokerCode.BET_AFTER_FOLD,
    PokerCode.BET_ORDER,
    PokerCode.EXCHANGE_COUNT,
    PokerCode.EXCHANGE_CARD,
    PokerCode.BET_ACTION,
    PokerCode.BET_AMOUNT,
)


class ClubHand:
    """The replay of one club hand from ``stacks``, with ``dealer`` the rotation's dealer."""

    def __init__(
        self, ruleset: Ruleset, log: Log, hand: Hand, stacks: list[int], dealer: int
    ) -> None:
        self.ruleset = ruleset
        self.log = log
        self.hand = hand
        self.n = n = len(stacks)
        self.start = stacks
        self.dealer = dealer
        self.at = ("hands", hand.index)
        self.seen = Seen(log, ruleset, hand.joker)
        self.judge = Judge(ruleset, hand.joker)
        self.inn = [s > 0 for s in stacks]
        self.stack = list(stacks)
        self.contrib = [0] * n
        self.folded: list[int | None] = [None] * n  #: the stage a seat folded in
        self.listed: list[list[int]] = []
        self.held: list[list[int]] = [[] for _ in range(n)]
        self.exchanged = [False] * n
        self.stock = ruleset.deck
        self.stage = 0
        self.over = False
        # The betting round of the current stage.
        self.put = [0] * n
        self.current = 0
        self.last_raise = ruleset.option("min_bet")
        self.acted: set[int] = set()
        self.closed: set[int] = set()
        self.done = False
        #: Told the stage and the action (0: the stage's start) after each step; a replay
        #: that shows the table sets it (``state``), the verification does not.
        self.watch: Callable[[int, int], None] | None = None

    # -- the hand -------------------------------------------------------------------------

    def replay(self) -> HandResult:
        if self.hand.dealer is not None and self.hand.dealer != self.dealer:
            self.log.add(
                PokerCode.HAND_DEALER,
                f"the dealer is seat {self.dealer}, not {self.hand.dealer}",
                expected=self.dealer,
                actual=self.hand.dealer,
                path=(*self.at, "dealer"),
            )
        self._read_cards()
        for seat in self._clockwise():
            self._pay(seat, self.ruleset.option("ante"))
        for number in range(1, 6):
            self.stage = number
            actions = self.hand.stages[number - 1] if number <= len(self.hand.stages) else []
            self._stage(actions)
        for number in range(6, len(self.hand.stages) + 1):
            self._step(number, 0)
            for i, action in enumerate(self.hand.stages[number - 1]):
                self._report(
                    PokerCode.BET_ORDER, "the club game has five stages", action, number, i
                )
                self._step(number, i + 1)
        self._card_counts()
        return self._settle()

    def _clockwise(self, after: int | None = None) -> list[int]:
        """The seats in the hand clockwise from the left of ``after`` (the dealer)."""
        first = self.dealer if after is None else after
        return [s for s in ((first + k) % self.n for k in range(1, self.n + 1)) if self.inn[s]]

    def _read_cards(self) -> None:
        for seat, cards in enumerate(self.hand.cards):
            if not self.inn[seat] and cards:
                self.log.add(
                    PokerCode.HAND_CARDS,
                    "a seat without chips sits the hand out and is dealt no cards",
                    seat=seat,
                    actual=len(cards),
                    path=(*self.at, "cards", seat),
                )
            if not self.inn[seat] or cards is None:
                self.listed.append([])
                continue
            path = (*self.at, "cards", seat)
            self.listed.append(
                [self.seen.read(c, (*path, i), seat=seat) for i, c in enumerate(cards[:5])]
            )

    def _deal(self, count: int) -> None:
        for seat in self._clockwise():
            if self.folded[seat] is not None:
                continue
            for _ in range(count):
                have = len(self.held[seat])
                listed = self.listed[seat]
                self.held[seat].append(listed[have] if have < len(listed) else UNSEEN)
                self.stock -= 1

    def _card_counts(self) -> None:
        for seat, cards in enumerate(self.hand.cards):
            dealt = len(self.held[seat])
            if self.inn[seat] and cards is not None and len(cards) != dealt:
                self.log.add(
                    PokerCode.HAND_CARDS,
                    f"this seat was dealt {dealt} cards, not {len(cards)}",
                    seat=seat,
                    expected=dealt,
                    actual=len(cards),
                    path=(*self.at, "cards", seat),
                )

    def _pay(self, seat: int, amount: int) -> None:
        """A forced bet: the amount, or all the seat has."""
        paid = min(amount, max(self.stack[seat], 0))
        self.stack[seat] -= paid
        self.contrib[seat] += paid

    # -- a stage --------------------------------------------------------------------------

    def _stage(self, actions: list[Action]) -> None:
        number = self.stage
        if self.over:
            self._step(number, 0)
            for i, action in enumerate(actions):
                self._report(PokerCode.BET_ORDER, "the hand is over", action, number, i)
                self._step(number, i + 1)
            return
        if number <= 4:
            self._deal(2 if number == 1 else 1)
        self.put = [0] * self.n
        self.current = 0
        self.last_raise = self.ruleset.option("min_bet")
        self.acted, self.closed = set(), set()
        after = self.dealer
        blinds = self.ruleset.option("blinds")
        if number == 1 and blinds is not None:
            order = self._clockwise()
            for seat, blind in zip(order[:2], blinds, strict=False):
                paid = min(blind, max(self.stack[seat], 0))
                self._pay(seat, blind)
                self.put[seat] = paid
                after = seat
            self.current = max(self.put)
        turn = self._next(after)
        self.done = turn is None or self._skipped()
        exchanging = number in self.ruleset.option("exchange_stages")
        self.exchanged = [False] * self.n  # once a seat in each exchange stage
        betting = False
        last_exchanger: int | None = None
        self._step(number, 0)
        for i, action in enumerate(actions):
            if action.act is Act.EXCHANGE:
                last_exchanger = self._exchange(action, i, exchanging, betting, last_exchanger)
            else:
                betting = True
                turn = self._action(action, i, turn)
            self._step(number, i + 1)
        while not self.done and turn is not None:
            owed = self.current - self.put[turn]
            self.log.add(
                PokerCode.BET_MISSING,
                "this seat still had to act" + (" and is read as folding" if owed > 0 else ""),
                stage=number,
                seat=turn,
                path=(*self.at, "stages"),
            )
            turn = self._apply(turn, Act.FOLD if owed > 0 else Act.CHECK, 0)

    def _step(self, stage: int, action: int) -> None:
        if self.watch is not None:
            self.watch(stage, action)

    def _can_act(self, seat: int) -> bool:
        return self.inn[seat] and self.folded[seat] is None and self.stack[seat] > 0

    def _needs(self, seat: int) -> bool:
        return self._can_act(seat) and (seat not in self.acted or self.put[seat] < self.current)

    def _next(self, after: int) -> int | None:
        for step in range(1, self.n + 1):
            seat = (after + step) % self.n
            if self._needs(seat):
                return seat
        return None

    def _skipped(self) -> bool:
        """A round at most one seat could play, owing nothing, is not played (POKER §4.4)."""
        able = [s for s in range(self.n) if self._can_act(s)]
        return len(able) == 0 or (len(able) == 1 and self.put[able[0]] >= self.current)

    def _report(
        self,
        code: PokerCode,
        message: str,
        action: Action,
        stage: int,
        index: int,
        expected: object = None,
        actual: object = None,
    ) -> None:
        self.log.add(
            code,
            message,
            stage=stage,
            action=index + 1,
            seat=action.seat,
            expected=expected,
            actual=actual,
            path=(*self.at, "stages", stage - 1, index),
        )

    def _absent(self, action: Action, index: int) -> bool:
        """Reports an action of a seat not in the hand or folded; True when it is one."""
        seat = action.seat
        if self.inn[seat] and self.folded[seat] is None:
            return False
        self._report(
            PokerCode.BET_AFTER_FOLD, "this seat is not in the hand", action, self.stage, index
        )
        return True

    def _exchange(
        self, action: Action, index: int, allowed: bool, betting: bool, last: int | None
    ) -> int | None:
        seat = action.seat
        if self._absent(action, index):
            return last
        problems: list[Problem] = []
        order = self._clockwise()
        if betting or (last is not None and order.index(seat) < order.index(last)):
            problems.append(
                (
                    PokerCode.BET_ORDER,
                    "exchanges come before the betting, clockwise from the dealer's left",
                    None,
                    None,
                )
            )
        low, high = self.ruleset.exchange_min, self.ruleset.exchange_max
        count = len(action.cards)
        if not allowed:
            problems.append(
                (
                    PokerCode.EXCHANGE_COUNT,
                    "this stage has no exchange",
                    self.ruleset.option("exchange_stages"),
                    self.stage,
                )
            )
        elif self.exchanged[seat]:
            problems.append((PokerCode.EXCHANGE_COUNT, "a seat exchanges once a stage", 1, 2))
        elif (size := exchange_size(low, high, count, len(action.new))) is not None:
            problems.append(size)
        elif count > self.stock - self._reserved():
            problems.append(
                (
                    PokerCode.EXCHANGE_COUNT,
                    "the stock has too few cards",
                    self.stock - self._reserved(),
                    count,
                )
            )
        positions = positions_of(self.held[seat], action.cards)
        if positions is None:
            problems.append(not_held(self.held[seat], action.cards))
        if problems:
            code, message, expected, actual = min(problems, key=lambda p: ORDER.index(p[0]))
            self._report(code, message, action, self.stage, index, expected, actual)
        if positions is None or any(
            p[0] in (PokerCode.EXCHANGE_COUNT, PokerCode.EXCHANGE_CARD) for p in problems
        ):
            return last
        self.exchanged[seat] = True
        self.stock -= count
        path = (*self.at, "stages", self.stage - 1, index, "new")
        for j, (place, card) in enumerate(zip(positions, action.new, strict=True)):
            self.held[seat][place] = self.seen.read(
                card, (*path, j), seat=seat, stage=self.stage, action=index + 1
            )
        return seat

    def _reserved(self) -> int:
        """The stock cards the later deals of the hand need, which no exchange may take."""
        live = sum(1 for s in range(self.n) if self.inn[s] and self.folded[s] is None)
        return live * max(0, 4 - self.stage)

    def _action(self, action: Action, index: int, turn: int | None) -> int | None:
        seat = action.seat
        if self._absent(action, index):
            return turn
        if self.done or not self._needs(seat):
            why = "the round is over" if self.done else "this seat has nothing to do"
            self._report(PokerCode.BET_ORDER, why, action, self.stage, index)
            return turn
        problems: list[Problem] = []
        if seat != turn:
            problems.append((PokerCode.BET_ORDER, "it is not this seat's turn", turn, seat))
        act, amount = action.act, action.amount
        owed = self.current - self.put[seat]
        all_in = self.put[seat] + self.stack[seat]
        answer = any(self._can_act(s) for s in range(self.n) if s != seat)
        if act is Act.CHECK and owed > 0:
            problems.append(
                (PokerCode.BET_ACTION, "a check facing a bet is read as a fold", "call", "check")
            )
            act = Act.FOLD
        elif act is Act.CALL and owed == 0:
            problems.append(
                (PokerCode.BET_ACTION, "nothing to call: read as a check", "check", "call")
            )
            act = Act.CHECK
        elif act is Act.BET and self.current > 0:
            problems.append(
                (PokerCode.BET_ACTION, "a bet over a bet is read as a raise", "raise", "bet")
            )
            act = Act.RAISE
        elif act is Act.RAISE and self.current == 0:
            problems.append(
                (PokerCode.BET_ACTION, "a raise with no bet is read as a bet", "bet", "raise")
            )
            act = Act.BET
        if act in (Act.BET, Act.RAISE) and not answer:
            read = Act.CHECK if act is Act.BET else Act.CALL
            problems.append(
                (PokerCode.BET_ACTION, "no other seat has chips to answer", str(read), str(act))
            )
            act = read
        elif act is Act.RAISE and seat in self.closed:
            problems.append(
                (PokerCode.BET_ACTION, "raising is closed to this seat", "call", "raise")
            )
            act = Act.CALL
        target = 0
        if act is Act.CALL:
            target = min(self.current, all_in)
            if amount is not None and amount != target:
                problems.append((PokerCode.BET_AMOUNT, f"the call is to {target}", target, amount))
        elif act in (Act.BET, Act.RAISE):
            target = amount if amount is not None else all_in
            least = (
                self.ruleset.option("min_bet") if act is Act.BET else self.current + self.last_raise
            )
            if target > all_in:
                problems.append(
                    (
                        PokerCode.BET_AMOUNT,
                        f"the seat has {all_in} to put in this stage",
                        all_in,
                        target,
                    )
                )
            elif target < least and target != all_in:
                problems.append(
                    (PokerCode.BET_AMOUNT, f"the least {act} is to {least}", least, target)
                )
        if problems:
            code, message, expected, actual = min(problems, key=lambda p: ORDER.index(p[0]))
            self._report(code, message, action, self.stage, index, expected, actual)
        return self._apply(seat, act, target)

    def _apply(self, seat: int, act: Act, target: int) -> int | None:
        if act in (Act.BET, Act.RAISE) and target <= self.current:
            act, target = Act.CALL, min(self.current, self.put[seat] + self.stack[seat])
        if act is Act.FOLD:
            self.folded[seat] = self.stage
            if sum(1 for s in range(self.n) if self.inn[s] and self.folded[s] is None) == 1:
                self.over = self.done = True
                return None
        elif act is Act.CALL:
            self._put(seat, target)
        elif act in (Act.BET, Act.RAISE):
            raised = target - self.current
            full = raised >= self.last_raise or (act is Act.BET)
            self._put(seat, target)
            if full:
                self.last_raise = max(raised, self.last_raise) if act is Act.BET else raised
                self.closed = set()
            else:
                self.closed |= self.acted - {seat}
            self.acted = set()
            self.current = target
        self.acted.add(seat)
        turn = self._next(seat)
        if turn is None:
            self.done = True
            return None
        return turn

    def _put(self, seat: int, target: int) -> None:
        pay = target - self.put[seat]
        self.put[seat] = target
        self.stack[seat] -= pay
        self.contrib[seat] += pay

    # -- the pots -------------------------------------------------------------------------

    def _settle(self) -> HandResult:
        n = self.n
        live = [s for s in range(n) if self.inn[s] and self.folded[s] is None]
        contrib, layers = pot_layers(self.contrib, live)
        judged: dict[int, tuple[int, Made]] = {}
        if not self.over:
            judged = showdown(self.log, self.seen, self.judge, self.hand, self.held, live)
        pots: list[PotResult] = []
        payout = [0] * n
        for amount, eligible in layers:
            best = self._best(eligible, judged)
            pots.append(PotResult(amount, eligible, best))
            for seat, share in zip(best, self._shares(amount, best), strict=True):
                payout[seat] += share
        net = [payout[s] - contrib[s] for s in range(n)]
        stacks = [self.start[s] + net[s] for s in range(n)]
        winners = sorted({s for pot in pots for s in pot.winners})
        self._check_pots(pots)
        check_claims(self.log, self.hand, winners, net, stacks)
        ranks = [str(judged[s][1].category) if s in judged else None for s in range(n)]
        return HandResult(
            self.hand.index + 1,
            self.dealer,
            ranks,
            None,
            None,
            pots,
            winners,
            net,
            stacks,
            self.folded,
            list(self.inn),
        )

    def _best(
        self, eligible: tuple[int, ...], judged: dict[int, tuple[int, Made]]
    ) -> tuple[int, ...]:
        known = [s for s in eligible if s in judged]
        if not known:
            return eligible
        top = max(judged[s][0] for s in known)
        return tuple(s for s in known if judged[s][0] == top)

    def _shares(self, amount: int, winners: tuple[int, ...]) -> list[int]:
        """Equal shares; the odd chips one by one from the dealer's left (POKER §4.6)."""
        share, odd = divmod(amount, len(winners))
        left = [
            s for s in ((self.dealer + k) % self.n for k in range(1, self.n + 1)) if s in winners
        ]
        extra = set(left[:odd])
        return [share + (1 if s in extra else 0) for s in winners]

    def _check_pots(self, pots: list[PotResult]) -> None:
        claimed = self.hand.pots
        if claimed is None:
            return
        at = (*self.at, "pots")
        if len(claimed) != len(pots):
            self.log.add(
                PokerCode.RESULT_POT,
                f"the hand has {len(pots)} pots, not {len(claimed)}",
                expected=len(pots),
                actual=len(claimed),
                path=at,
            )
        for i, (want, got) in enumerate(zip(pots, claimed, strict=False)):
            if want.amount != got.amount:
                self.log.add(
                    PokerCode.RESULT_POT,
                    f"pot {i + 1} holds {want.amount}, not {got.amount}",
                    expected=want.amount,
                    actual=got.amount,
                    path=(*at, i, "amount"),
                )
            if sorted(set(got.winners)) != sorted(want.winners):
                self.log.add(
                    PokerCode.RESULT_WINNER,
                    f"the claimed winners of pot {i + 1} differ",
                    expected=list(want.winners),
                    actual=list(got.winners),
                    path=(*at, i, "winners"),
                )


def not_held(held: list[int], discards: tuple[int, ...]) -> Problem:
    """The problem of an exchange whose discards ``positions_of`` cannot place in ``held``."""
    return (
        PokerCode.EXCHANGE_CARD,
        "a discarded card is not this seat's",
        names(held),
        names(discards),
    )


def positions_of(held: list[int], discards: tuple[int, ...]) -> list[int] | None:
    """Where each discarded card lies in ``held`` (``??``, or a card nobody saw, takes an
    unseen place); None when one is not there."""
    free = list(range(len(held)))
    out = []
    for card in discards:
        place = next((p for p in free if held[p] == card and card != UNSEEN), None)
        if place is None:
            place = next((p for p in free if held[p] == UNSEEN), None)
        if place is None:
            return None
        free.remove(place)
        out.append(place)
    return out


__all__ = ["ORDER", "ClubHand", "Problem", "exchange_size", "positions_of"]
