"""Simulated poker records: random legal hands of every preset (docs/poker.md §3, §4),
optionally with exactly one defect, for property tests, benchmarks and examples.

The simulator is an oracle for the replay: it runs its own betting rounds, pots and casino
settlements, sharing with the replay only the hand evaluator and the ruleset tables. A
record it calls legal that the replay rejects is a bug in one of the two.

The players bet from their hand's strength (a sum over the cards they hold of what they
make: pairs, jokers, high cards), not at random: a strong seat bets and raises, a weak one
checks and folds to bets, and in the casino game a seat calls with a pair or ace-king. A
high-card hand exchanges the cards outside its pairs and jokers, the lowest first.

Corruptions (``CORRUPTIONS``) change one thing of a legal record and say where in
``meta["corruption"]``: the code the replay must report and its hand, stage, action and
seat. Each needs a place in the record to make sense (a folded seat, an exchange, a
showdown …); the simulator plays hands until one has it.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import X1, X2, card_name
from .hands import Category
from .parse import FORMAT
from .rulesets import Game, Ruleset, paid_line, resolve_ruleset
from .table import Judge, pot_layers, qualifies

Record = dict[str, Any]


def ruleset_of(value: str | dict[str, Any]) -> Ruleset:
    ruleset, findings = resolve_ruleset(value)
    if ruleset is None:
        raise ValueError(findings[0].message)
    return ruleset


def strength(cards: list[int], joker: int | None) -> float:
    """0 … 1: what the cards held make, for the bots' bets."""
    wild = [c for c in cards if c >= X1 or c == joker]
    ranks = sorted((c % 13 for c in cards if c not in wild), reverse=True)
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True) or [0]
    group = counts[0] + len(wild)
    pairs = sum(1 for c in counts if c >= 2)
    high = (ranks[0] / 12) if ranks else 1.0
    return min(1.0, 0.18 * (group - 1) + 0.12 * max(pairs - 1, 0) + 0.15 * high)


def _discards(cards: list[int], joker: int | None, most: int) -> list[int]:
    """The cards outside the pairs and jokers, the lowest first, at most ``most``."""
    ranks = [c % 13 for c in cards]
    loose = [c for c in cards if c < X1 and c != joker and ranks.count(c % 13) == 1]
    return sorted(loose, key=lambda c: c % 13)[: min(most, 3)]


class _Deck:
    def __init__(self, ruleset: Ruleset, rng: random.Random) -> None:
        cards = (
            list(range(52))
            + ([X1] if ruleset.deck >= 53 else [])
            + ([X2] if ruleset.deck == 54 else [])
        )
        rng.shuffle(cards)
        self.cards = cards

    def draw(self, count: int = 1) -> list[int]:
        out, self.cards = self.cards[:count], self.cards[count:]
        return out


def simulate_record(
    ruleset: str | dict[str, Any], players: int, hands: int, seed: int, stack: int = 100
) -> Record:
    """A legal record of ``hands`` hands (fewer when the club game ends: one seat left)."""
    resolved = ruleset_of(ruleset)
    if not resolved.min_players <= players <= resolved.max_players:
        raise ValueError(
            f"{resolved.preset} is played by {resolved.min_players} to {resolved.max_players} seats"
        )
    rng = random.Random(seed)
    stacks = [stack] * players
    record: Record = {
        "format": FORMAT,
        "ruleset": ruleset,
        "seats": [{"name": f"P{i + 1}", "stack": stack} for i in range(players)],
        "hands": [],
    }
    dealer = 0
    for number in range(hands):
        if resolved.game is Game.CASINO:
            hand = _casino_hand(resolved, rng, stacks)
        else:
            if sum(1 for s in stacks if s > 0) < 2:
                break
            if number > 0:
                dealer = next(
                    s
                    for s in ((dealer + k) % players for k in range(1, players + 1))
                    if stacks[s] > 0
                )
            hand = _club_hand(resolved, rng, stacks, dealer)
        record["hands"].append(hand)
        stacks = list(hand["stacks"])
    record["stacks"] = stacks
    return record


# -- the casino game ------------------------------------------------------------------------


def _casino_hand(ruleset: Ruleset, rng: random.Random, stacks: list[int]) -> Record:
    n = len(stacks)
    deck = _Deck(ruleset, rng)
    joker = deck.draw()[0] if ruleset.drawn_joker else None
    if joker is not None:
        deck.cards.append(joker)  # the drawn card is a card of the deck like any other
        rng.shuffle(deck.cards)
    opt = ruleset.option
    antes = []
    for seat in range(n):
        high = min(
            opt("max_ante") or 5, stacks[seat] // (1 + opt("exchange_fee") + opt("call_multiple"))
        )
        antes.append(
            rng.randint(opt("min_ante"), high)
            if high >= opt("min_ante") and rng.random() < 0.9
            else 0
        )
    cards = [deck.draw(5) if antes[s] else [] for s in range(n)]
    dealer_cards = deck.draw(5)
    judge = Judge(ruleset, joker)
    actions: list[Record] = []
    final = [list(c) for c in cards]
    fees = [0] * n
    called = [False] * n
    for seat in range(n):
        if not antes[seat]:
            continue
        held = final[seat]
        made = judge.judge(held)[1]
        if (
            made.category is Category.HIGH_CARD
            and opt("max_exchanges") > 0
            and len(deck.cards) >= 5
        ):
            out = _discards(held, joker, ruleset.exchange_max)
            if ruleset.exchange_min <= len(out) <= ruleset.exchange_max:
                new = deck.draw(len(out))
                actions.append(
                    {"seat": seat, "action": "exchange", "cards": _names(out), "new": _names(new)}
                )
                for old, card in zip(out, new, strict=True):
                    held[held.index(old)] = card
                fees[seat] += opt("exchange_fee") * antes[seat]
                made = judge.judge(held)[1]
        call = (
            made.category > Category.HIGH_CARD or made.lineup[:2] == (12, 11) or rng.random() < 0.1
        )
        called[seat] = call
        actions.append({"seat": seat, "action": "call" if call else "fold"})
    dealer_value, dealer_made = judge.judge(dealer_cards)
    qualified = qualifies(dealer_made, opt("dealer_qualifier"))
    net, winners = [0] * n, []
    for seat in range(n):
        if not antes[seat]:
            continue
        ante, bet = antes[seat], opt("call_multiple") * antes[seat]
        if not called[seat]:
            net[seat] = -ante - fees[seat]
            continue
        value, made = judge.judge(final[seat])
        if not qualified:
            result, won = ante, True
        elif value > dealer_value:
            joker_pair = any(c >= X1 or c == joker for c in final[seat])
            win = bet * paid_line(ruleset, made.category, joker_pair)
            cap = opt("max_payout")
            result = (ante if opt("ante_pays") else 0) + (win if cap is None else min(win, cap))
            won = True
        elif value == dealer_value:
            result, won = 0, False
        else:
            result, won = -ante - bet, False
        net[seat] = result - fees[seat]
        if won:
            winners.append(seat)
    hand: Record = {"antes": antes}
    if joker is not None:
        hand["joker"] = card_name(joker)
    hand["cards"] = [_names(c) for c in cards]
    hand["dealer_cards"] = _names(dealer_cards)
    hand["stages"] = [actions]
    hand["showdown"] = [
        {"seat": s, "cards": _names(final[s]), "rank": str(judge.judge(final[s])[1].category)}
        for s in range(n)
        if called[s]
    ]
    hand["dealer_rank"] = str(dealer_made.category)
    hand["winners"] = winners
    hand["net"] = net
    hand["stacks"] = [s + d for s, d in zip(stacks, net, strict=True)]
    return hand


# -- the club game --------------------------------------------------------------------------


class _Club:
    """One club hand as the table plays it."""

    def __init__(
        self, ruleset: Ruleset, rng: random.Random, stacks: list[int], dealer: int
    ) -> None:
        self.ruleset, self.rng, self.dealer = ruleset, rng, dealer
        self.n = n = len(stacks)
        self.start = stacks
        self.stack = list(stacks)
        self.inn = [s > 0 for s in stacks]
        self.folded = [False] * n
        self.contrib = [0] * n
        self.deck = _Deck(ruleset, rng)
        self.dealt: list[list[int]] = [[] for _ in range(n)]
        self.held: list[list[int]] = [[] for _ in range(n)]
        self.stages: list[list[Record]] = []

    def order(self) -> list[int]:
        return [
            s for s in ((self.dealer + k) % self.n for k in range(1, self.n + 1)) if self.inn[s]
        ]

    def live(self) -> list[int]:
        return [s for s in self.order() if not self.folded[s]]

    def pay(self, seat: int, amount: int) -> int:
        paid = min(amount, self.stack[seat])
        self.stack[seat] -= paid
        self.contrib[seat] += paid
        return paid

    def play(self) -> Record:
        for seat in self.order():
            self.pay(seat, self.ruleset.option("ante"))
        for stage in range(1, 6):
            if len(self.live()) == 1:
                break
            actions: list[Record] = []
            self.stages.append(actions)
            if stage <= 4:
                for seat in self.live():
                    cards = self.deck.draw(2 if stage == 1 else 1)
                    self.dealt[seat] += cards
                    self.held[seat] += cards
            if stage in self.ruleset.option("exchange_stages"):
                self.exchange(actions, stage)
            self.betting(stage, actions)
        return self.settle()

    def exchange(self, actions: list[Record], stage: int) -> None:
        low, high = self.ruleset.exchange_min, self.ruleset.exchange_max
        reserved = len(self.live()) * max(0, 4 - stage)
        for seat in self.live():
            out = _discards(self.held[seat], None, high)
            if len(out) < low:
                out = self.held[seat][:low]
            if (not out and low == 0) or len(out) > len(self.deck.cards) - reserved:
                continue
            new = self.deck.draw(len(out))
            for old, card in zip(out, new, strict=True):
                self.held[seat][self.held[seat].index(old)] = card
            actions.append(
                {"seat": seat, "action": "exchange", "cards": _names(out), "new": _names(new)}
            )

    def betting(self, stage: int, actions: list[Record]) -> None:
        n = self.n
        put = [0] * n
        min_bet = self.ruleset.option("min_bet")
        current, last_raise = 0, min_bet
        acted: set[int] = set()
        closed: set[int] = set()
        after = self.dealer
        blinds = self.ruleset.option("blinds")
        if stage == 1 and blinds is not None:
            for seat, blind in zip(self.order()[:2], blinds, strict=False):
                put[seat] = self.pay(seat, blind)
                after = seat
            current = max(put)

        def able(seat: int) -> bool:
            return self.inn[seat] and not self.folded[seat] and self.stack[seat] > 0

        def needs(seat: int) -> bool:
            return able(seat) and (seat not in acted or put[seat] < current)

        def next_from(seat: int) -> int | None:
            return next((s for s in ((seat + k) % n for k in range(1, n + 1)) if needs(s)), None)

        can = [s for s in range(n) if able(s)]
        if not can or (len(can) == 1 and put[can[0]] >= current):
            return
        turn = next_from(after)
        while turn is not None:
            seat = turn
            owed = current - put[seat]
            top = put[seat] + self.stack[seat]
            power = strength(self.held[seat], None) + self.rng.uniform(-0.15, 0.15)
            answer = any(able(s) for s in range(n) if s != seat)
            action: Record
            if owed == 0:
                if answer and power > 0.35 and self.rng.random() < 0.6:
                    word = "bet" if current == 0 else "raise"
                    least = min_bet if current == 0 else current + last_raise
                    target = min(top, max(least, current + int(power * 10)))
                    if word == "raise" and (seat in closed or target <= current):
                        action = {"seat": seat, "action": "check"}
                    else:
                        action = {"seat": seat, "action": word, "amount": target}
                else:
                    action = {"seat": seat, "action": "check"}
            elif power < 0.2 and self.rng.random() < 0.7:
                action = {"seat": seat, "action": "fold"}
            elif (
                answer
                and seat not in closed
                and power > 0.3
                and top > current + last_raise
                and self.rng.random() < 0.4
            ):
                action = {
                    "seat": seat,
                    "action": "raise",
                    "amount": min(top, current + last_raise + int(power * 6)),
                }
            else:
                action = {"seat": seat, "action": "call"}
            actions.append(action)
            word = action["action"]
            if word == "fold":
                self.folded[seat] = True
                if len(self.live()) == 1:
                    return
            elif word == "call":
                target = min(current, top)
                self.pay(seat, target - put[seat])
                put[seat] = target
            elif word in ("bet", "raise"):
                target = action["amount"]
                raised = target - current
                self.pay(seat, target - put[seat])
                put[seat] = target
                if word == "bet" or raised >= last_raise:
                    last_raise = max(raised, last_raise) if word == "bet" else raised
                    closed = set()
                else:
                    closed |= acted - {seat}
                acted = set()
                current = target
            acted.add(seat)
            turn = next_from(seat)

    def settle(self) -> Record:
        n = self.n
        live = self.live()
        contrib, layers = pot_layers(self.contrib, live)
        judge = Judge(self.ruleset, None)
        judged = {s: judge.judge(self.held[s])[0] for s in live} if len(live) > 1 else {}
        payout = [0] * n
        pots: list[Record] = []
        for amount, eligible in layers:
            best = max((judged.get(s, 0) for s in eligible), default=0)
            winners = [s for s in eligible if judged.get(s, 0) == best]
            share, odd = divmod(amount, len(winners))
            lucky = [s for s in ((self.dealer + k) % n for k in range(1, n + 1)) if s in winners][
                :odd
            ]
            for seat in winners:
                payout[seat] += share + (seat in lucky)
            pots.append({"amount": amount, "winners": winners})
        net = [payout[s] - contrib[s] for s in range(n)]
        hand: Record = {
            "dealer": self.dealer,
            "cards": [_names(c) for c in self.dealt],
            "stages": self.stages,
        }
        if len(live) > 1:
            hand["showdown"] = [
                {
                    "seat": s,
                    "cards": _names(self.held[s]),
                    "rank": str(judge.judge(self.held[s])[1].category),
                }
                for s in live
            ]
        hand["pots"] = pots
        hand["winners"] = sorted({s for p in pots for s in p["winners"]})
        hand["net"] = net
        hand["stacks"] = [self.start[s] + net[s] for s in range(n)]
        return hand


def _club_hand(ruleset: Ruleset, rng: random.Random, stacks: list[int], dealer: int) -> Record:
    return _Club(ruleset, rng, stacks, dealer).play()


def _names(cards: list[int]) -> list[str]:
    return [card_name(c) for c in cards]


__all__ = ["simulate_record", "strength"]
