"""One hand of the casino game (docs/poker.md §3): antes, the deal, each seat's exchanges
and its call or fold in seat order, the dealer's qualification, and the settlement by the
paytable. Every seat plays against the house alone, so a seat's result is its own."""

from __future__ import annotations

from collections.abc import Callable

from ..cards import X1
from .club import ORDER, Problem, exchange_size, not_held, positions_of
from .findings import PokerCode
from .hands import Category, Made
from .parse import UNSEEN, Act, Action, Hand
from .report import HandResult
from .rulesets import Ruleset, paid_line
from .table import Judge, Log, Seen, check_claims, names, qualifies, showdown

FOLD, CALL = "fold", "call"


class CasinoHand:
    """The replay of one casino hand, ``stacks`` the seats' chips before it."""

    def __init__(self, ruleset: Ruleset, log: Log, hand: Hand, stacks: list[int]) -> None:
        self.ruleset = ruleset
        self.log = log
        self.hand = hand
        self.n = len(stacks)
        self.stacks = stacks
        self.at = ("hands", hand.index)
        self.seen = Seen(log, ruleset, hand.joker)
        self.judge = Judge(ruleset, hand.joker)
        self.antes = [max(a, 0) for a in hand.antes]
        self.playing = [a > 0 for a in self.antes]
        self.decided: list[str | None] = [None] * self.n
        self.exchanges = [0] * self.n
        self.paid = [0] * self.n  #: fees and the call: what left the stack after the ante
        self.fees = [0] * self.n
        self.held: list[list[int]] = []
        self.stock = 0
        #: Told the stage and the action (0: the stage's start) after each step (``state``).
        self.watch: Callable[[int, int], None] | None = None

    def replay(self) -> HandResult:
        self._antes()
        dealer = self._deal()
        self._decisions()
        return self._settle(dealer)

    def _antes(self) -> None:
        low, high = self.ruleset.option("min_ante"), self.ruleset.option("max_ante")
        for seat, ante in enumerate(self.hand.antes):
            if ante == 0:
                continue
            if ante < low or (high is not None and ante > high) or ante > self.stacks[seat]:
                self.log.add(
                    PokerCode.HAND_ANTE,
                    f"an ante of {ante} is outside {low}…{high or 'the stack'}"
                    f" or above the stack of {self.stacks[seat]}",
                    seat=seat,
                    actual=ante,
                    path=(*self.at, "antes", seat),
                )

    def _deal(self) -> list[int] | None:
        cards = self.hand.dealer_cards
        dealer = None
        if cards is not None:
            dealer = self._five(cards, ("dealer_cards",), None)
        for seat in range(self.n):
            given = self.hand.cards[seat]
            if not self.playing[seat]:
                if given:
                    self.log.add(
                        PokerCode.HAND_CARDS,
                        "a seat sitting out is dealt no cards",
                        seat=seat,
                        actual=len(given),
                        path=(*self.at, "cards", seat),
                    )
                self.held.append([])
                continue
            self.held.append(
                [UNSEEN] * 5 if given is None else self._five(given, ("cards", seat), seat)
            )
        self.stock = self.ruleset.deck - 5 * (sum(self.playing) + 1)
        return dealer

    def _five(self, cards: list[int], where: tuple[str | int, ...], seat: int | None) -> list[int]:
        if len(cards) != 5:
            self.log.add(
                PokerCode.HAND_CARDS,
                f"five cards are dealt, not {len(cards)}",
                seat=seat,
                expected=5,
                actual=len(cards),
                path=(*self.at, *where),
            )
        five = [
            self.seen.read(c, (*self.at, *where, i), seat=seat) for i, c in enumerate(cards[:5])
        ]
        return five + [UNSEEN] * (5 - len(five))

    def _decisions(self) -> None:
        turn = self._next(-1)
        self._step(1, 0)
        for st, stage in enumerate(self.hand.stages):
            if st > 0:
                self._step(st + 1, 0)
            for i, action in enumerate(stage):
                path = (*self.at, "stages", st, i)
                if st > 0:
                    self.log.add(
                        PokerCode.BET_ORDER,
                        "the casino game has one stage of decisions",
                        stage=st + 1,
                        action=i + 1,
                        seat=action.seat,
                        path=path,
                    )
                else:
                    turn = self._action(action, i + 1, path, turn)
                self._step(st + 1, i + 1)
        while turn is not None:
            self.log.add(
                PokerCode.BET_MISSING,
                "this seat did not call or fold",
                stage=1,
                seat=turn,
                path=(*self.at, "stages"),
            )
            self.decided[turn] = FOLD
            turn = self._next(turn)

    def _step(self, stage: int, action: int) -> None:
        if self.watch is not None:
            self.watch(stage, action)

    def _next(self, after: int) -> int | None:
        for step in range(1, self.n + 1):
            seat = (after + step) % self.n
            if self.playing[seat] and self.decided[seat] is None:
                return seat
        return None

    def _action(
        self, action: Action, number: int, path: tuple[str | int, ...], turn: int | None
    ) -> int | None:
        seat = action.seat
        problems: list[Problem] = []

        def report(
            code: PokerCode, message: str, expected: object = None, actual: object = None
        ) -> None:
            self.log.add(
                code,
                message,
                stage=1,
                action=number,
                seat=seat,
                expected=expected,
                actual=actual,
                path=path,
            )

        if not self.playing[seat] or self.decided[seat] == FOLD:
            report(PokerCode.BET_AFTER_FOLD, "this seat is not in the hand")
            return turn
        if self.decided[seat] is not None:
            report(PokerCode.BET_ORDER, "this seat has already called")
            return turn
        if seat != turn:
            problems.append((PokerCode.BET_ORDER, "it is not this seat's turn", turn, seat))
        ante = self.antes[seat]
        act = action.act
        if act is Act.EXCHANGE:
            problems += self._exchange(action, ante, path)
        else:
            if act in (Act.BET, Act.RAISE, Act.CHECK):
                read = Act.FOLD if act is Act.CHECK else Act.CALL
                problems.append(
                    (PokerCode.BET_ACTION, f"the casino game has no {act}", str(read), str(act))
                )
                act = read
            if act is Act.CALL:
                bet = self.ruleset.option("call_multiple") * ante
                if action.amount is not None and action.amount != bet:
                    problems.append(
                        (PokerCode.BET_AMOUNT, f"the call is {bet}", bet, action.amount)
                    )
                elif bet > self._left(seat):
                    problems.append(
                        (PokerCode.BET_AMOUNT, "the call is above the stack", self._left(seat), bet)
                    )
                self.paid[seat] += bet
            self.decided[seat] = FOLD if act is Act.FOLD else CALL
        if problems:
            report(*min(problems, key=lambda p: ORDER.index(p[0])))
        if self.decided[seat] is not None:
            return self._next(seat)
        return seat

    def _left(self, seat: int) -> int:
        return self.stacks[seat] - self.antes[seat] - self.paid[seat]

    def _exchange(self, action: Action, ante: int, at: tuple[str | int, ...]) -> list[Problem]:
        seat = action.seat
        low, high = self.ruleset.exchange_min, self.ruleset.exchange_max
        count = len(action.cards)
        problems: list[Problem] = []
        if self.exchanges[seat] >= self.ruleset.option("max_exchanges"):
            problems.append(
                (
                    PokerCode.EXCHANGE_COUNT,
                    "no more exchanges are allowed",
                    self.ruleset.option("max_exchanges"),
                    self.exchanges[seat] + 1,
                )
            )
        elif (size := exchange_size(low, high, count, len(action.new))) is not None:
            problems.append(size)
        elif count > self.stock:
            problems.append(
                (PokerCode.EXCHANGE_COUNT, "the stock has too few cards", self.stock, count)
            )
        positions = positions_of(self.held[seat], action.cards)
        if positions is None:
            problems.append(not_held(self.held[seat], action.cards))
        if (
            any(p[0] in (PokerCode.EXCHANGE_COUNT, PokerCode.EXCHANGE_CARD) for p in problems)
            or positions is None
        ):
            return problems
        fee = self.ruleset.option("exchange_fee") * ante
        if fee > self._left(seat):
            problems.append(
                (PokerCode.BET_AMOUNT, "the exchange fee is above the stack", self._left(seat), fee)
            )
        self.exchanges[seat] += 1
        self.paid[seat] += fee
        self.fees[seat] += fee
        self.stock -= count
        for j, (place, card) in enumerate(zip(positions, action.new, strict=True)):
            self.held[seat][place] = self.seen.read(card, (*at, "new", j), seat=seat, stage=1)
        return problems

    def _settle(self, dealer: list[int] | None) -> HandResult:
        called = [s for s in range(self.n) if self.decided[s] == CALL]
        judged = showdown(self.log, self.seen, self.judge, self.hand, self.held, called)
        dealer_judged: tuple[int, Made] | None = None
        if dealer is not None and UNSEEN not in dealer:
            dealer_judged = self.judge.judge(dealer)
        elif called:
            self.log.add(
                PokerCode.SHOWDOWN_CARDS,
                "seats called, but the dealer's cards are not known",
                actual=None if dealer is None else names(dealer),
                path=(*self.at, "dealer_cards"),
            )
        dealer_category = None if dealer_judged is None else dealer_judged[1].category
        rank = self.hand.dealer_rank
        if rank is not None and rank != (None if dealer_category is None else str(dealer_category)):
            self.log.add(
                PokerCode.SHOWDOWN_RANK,
                f"the dealer's hand makes {dealer_category or 'no known category'}, not {rank}",
                expected=None if dealer_category is None else str(dealer_category),
                actual=rank,
                path=(*self.at, "dealer_rank"),
            )
        rule = self.ruleset.option("dealer_qualifier")
        qualifies_ = None if dealer_judged is None else qualifies(dealer_judged[1], rule)
        net = [0] * self.n
        winners = []
        for seat in range(self.n):
            if not self.playing[seat]:
                continue
            ante, bet = self.antes[seat], self.paid[seat] - self.fees[seat]
            won, result = self._result(seat, ante, bet, judged.get(seat), dealer_judged, qualifies_)
            net[seat] = result - self.fees[seat]
            if won:
                winners.append(seat)
        stacks = [s + d for s, d in zip(self.stacks, net, strict=True)]
        check_claims(self.log, self.hand, winners, net, stacks)
        ranks = [str(judged[s][1].category) if s in judged else None for s in range(self.n)]
        return HandResult(
            self.hand.index + 1,
            None,
            ranks,
            None if dealer_category is None else str(dealer_category),
            qualifies_,
            None,
            winners,
            net,
            stacks,
            [1 if d == FOLD else None for d in self.decided],
            list(self.playing),
        )

    def _result(
        self,
        seat: int,
        ante: int,
        bet: int,
        mine: tuple[int, Made] | None,
        dealer: tuple[int, Made] | None,
        qualifies_: bool | None,
    ) -> tuple[bool, int]:
        """(whether the ante or the bet was paid, the change of the stack before fees)."""
        if self.decided[seat] == FOLD:
            return False, -ante
        if mine is None or dealer is None:
            return False, 0
        if not qualifies_:
            return True, ante
        if mine[0] > dealer[0]:
            line = paid_line(self.ruleset, mine[1].category, self._joker_pair(seat, mine[1]))
            win = bet * line
            cap = self.ruleset.option("max_payout")
            if cap is not None:
                win = min(win, cap)
            return True, (ante if self.ruleset.option("ante_pays") else 0) + win
        if mine[0] == dealer[0]:
            return False, 0
        return False, -ante - bet

    def _joker_pair(self, seat: int, made: Made) -> bool:
        return made.category is Category.ONE_PAIR and any(
            c >= X1 for c in self.judge.wild(self.held[seat])
        )


__all__ = ["CasinoHand"]
