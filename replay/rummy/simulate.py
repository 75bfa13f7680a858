"""Simulated rummy games (docs/rummy.md "The simulator"): complete legal games of either
preset for any player count, and records with exactly one defect at a known place.

A game is played by the bots of ``bots``; the record names every stock draw's card only now
and then (the deal lists its stock), writes every joker ``X``, and claims what the bots
computed themselves: points, cards left, running totals, totals.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .bots import Meld, Run, Set, discard_choice, fits_set, hand_melds, joker_spot, position_of
from .cards import JOKER, KINDS, card_name, rank_value
from .corrupt import CORRUPTIONS, corrupt
from .rulesets import Ruleset, resolve

Json = dict[str, Any]
MAX_TURNS = 1500  #: a deal still running then is dealt again (bots rarely stall so long)


def _entry(card: int, stands: int | None = None) -> str:
    return card_name(card) if stands is None else f"X={card_name(stands)}"


def _points(hand: list[int], o: dict[str, Any]) -> Any:
    if hand[JOKER] == 1 and sum(hand) == 1:
        return o["joker_last_card_value"]
    return hand[JOKER] * o["joker_value"] + sum(
        hand[c] * rank_value(c % 13) for c in range(JOKER) if hand[c]
    )


@dataclass(slots=True)
class TurnTrace:
    """What corruptions need to know of a turn: who, whether open before it, the hand
    before the discard."""

    seat: int
    open_before: bool
    hand: list[int]
    opening: list[int] = field(default_factory=list)  #: the opening melds' values, in order
    replaced: list[int] = field(default_factory=list)  #: actions that laid a taken joker


class _Deal:
    def __init__(self, ruleset: Ruleset, n: int, dealer: int, rng: random.Random) -> None:
        self.o = ruleset.options
        self.ruleset = ruleset
        self.n, self.dealer, self.rng = n, dealer, rng
        deck = [c for c in range(JOKER) for _ in range(self.o["decks"])]
        deck += [JOKER] * self.o["jokers"]
        rng.shuffle(deck)
        size = self.o["hand_size"]
        first = (dealer + 1) % n
        self.hands = [[0] * KINDS for _ in range(n)]
        self.dealt: list[list[int]] = []
        at = 0
        for seat in range(n):
            take = size + (seat == first)
            cards = sorted(deck[at : at + take])
            at += take
            self.dealt.append(cards)
            for c in cards:
                self.hands[seat][c] += 1
        self.stock_top_first = deck[at:]
        self.stock = self.stock_top_first[::-1]
        self.pile: list[int] = []
        self.table: list[Run | Set | None] = []
        self.opened = [False] * n
        self.turns: list[Json] = []
        self.trace: list[TurnTrace] = []
        self.out: int | None = None
        self.out_jokers = 0
        self.ace_low = int(self.o["ace_low_counts_for_opening"])

    def play(self) -> bool:
        seat = self.dealer
        for t in range(1, MAX_TURNS + 1):
            seat = (seat + 1) % self.n
            self.turn(t, seat)
            if self.out is not None:
                return True
        return False

    def draw(self, seat: int, turn: Json) -> None:
        hand = self.hands[seat]
        top = self.pile[-1] if self.pile else None
        if top is not None and self.useful(seat, top):
            self.pile.pop()
            hand[top] += 1
            turn["draw"] = (
                "discard"
                if self.rng.random() < 0.7
                else {"from": "discard", "card": card_name(top)}
            )
            return
        card = self.stock.pop()
        hand[card] += 1
        turn["draw"] = (
            "stock" if self.rng.random() < 0.7 else {"from": "stock", "card": card_name(card)}
        )
        if not self.stock:
            self.stock = self.pile[::-1]
            self.pile = []

    def useful(self, seat: int, card: int) -> bool:
        if card == JOKER:
            return True
        hand = self.hands[seat]
        rank, suit = card % 13, card // 13
        if sum(hand[s * 13 + rank] > 0 for s in range(4) if s != suit) >= 2:
            return True
        if self.opened[seat]:
            return any(self.fits(card, meld) is not None for meld in self.table if meld)
        return False

    @staticmethod
    def fits(card: int, meld: Run | Set) -> int | None:
        if isinstance(meld, Run):
            return position_of(card, meld)
        return 0 if fits_set(card, meld) else None

    def turn(self, t: int, seat: int) -> None:
        hand = self.hands[seat]
        turn: Json = {"seat": seat}
        if t > 1:
            self.draw(seat, turn)
        trace = TurnTrace(seat, self.opened[seat], [])
        actions: list[Json] = []
        if t > self.n:
            self.act(seat, hand, actions, trace)
        if actions:
            turn["actions"] = actions
        trace.hand = list(hand)
        if hand[JOKER] == sum(hand) and hand[JOKER] > 1:
            turn["discard"] = ["X"] * hand[JOKER]
            self.pile += [JOKER] * hand[JOKER]
            self.out, self.out_jokers = seat, hand[JOKER]
            hand[JOKER] = 0
        else:
            card = discard_choice(hand)
            hand[card] -= 1
            self.pile.append(card)
            turn["discard"] = card_name(card)
            if sum(hand) == 0:
                self.out, self.out_jokers = seat, int(card == JOKER)
        self.turns.append(turn)
        self.trace.append(trace)

    def act(self, seat: int, hand: list[int], actions: list[Json], trace: TurnTrace) -> None:
        melds = hand_melds(hand, self.ace_low)
        if not self.opened[seat]:
            melds.sort(key=lambda m: -m[2])
            melds = _layable(melds, sum(hand))
            # Only what can be laid while a card is kept to discard counts for the opening.
            if sum(v for _, _, v in melds) < self.o["opening_min"]:
                return
        for meld, cards, value in melds:
            if sum(hand) - len(cards) < 1:
                continue
            if not self.opened[seat]:
                trace.opening.append(value)
                if sum(trace.opening) >= self.o["opening_min"]:
                    self.opened[seat] = True
            for c in cards:
                hand[c] -= 1
            self.table.append(meld)
            entries = [_entry(c) for c in cards]
            if self.rng.random() < 0.5:
                self.rng.shuffle(entries)
            actions.append({"meld": entries})
        if not self.opened[seat]:
            return
        self.replace(seat, hand, actions, trace)
        for card in range(JOKER):
            while hand[card] and sum(hand) > 1:
                spot = next(
                    (i for i, m in enumerate(self.table) if m and self.fits(card, m) is not None),
                    None,
                )
                if spot is None:
                    break
                self.lay(spot, card, None)
                hand[card] -= 1
                actions.append({"lay_off": {"meld": spot + 1, "cards": [card_name(card)]}})

    def replace(self, seat: int, hand: list[int], actions: list[Json], trace: TurnTrace) -> None:
        for i, meld in enumerate(self.table):
            spot = joker_spot(self.table)
            if sum(hand) < 2 or spot is None:
                return
            if isinstance(meld, Run):
                held = [p for p in meld.jokers if hand[meld.card_at(p)]]
                if not held:
                    continue
                card = meld.card_at(held[0])
                del meld.jokers[held[0]]
            elif isinstance(meld, Set) and meld.jokers:
                card = next(
                    (
                        s * 13 + meld.rank
                        for s in range(4)
                        if s not in meld.suits and hand[s * 13 + meld.rank]
                    ),
                    -1,
                )
                if card < 0:
                    continue
                meld.jokers -= 1
                meld.suits.add(card // 13)
            else:
                continue
            hand[card] -= 1
            actions.append({"replace_joker": {"meld": i + 1, "card": card_name(card)}})
            target, stands = spot
            self.lay(target, JOKER, stands)
            trace.replaced.append(len(actions))
            actions.append({"lay_off": {"meld": target + 1, "cards": [_entry(JOKER, stands)]}})

    def lay(self, index: int, card: int, stands: int | None) -> None:
        meld = self.table[index]
        if isinstance(meld, Set):
            if card == JOKER:
                meld.jokers += 1
            else:
                meld.suits.add(card // 13)
            return
        assert meld is not None
        p = position_of(stands if stands is not None else card, meld)
        assert p is not None
        if card == JOKER:
            meld.jokers[p] = True
        meld.low, meld.high = min(meld.low, p), max(meld.high, p)

    def points(self) -> list[Any]:
        out: list[Any] = []
        for seat in range(self.n):
            if seat == self.out:
                out.append(
                    self.ruleset.jokers_out(self.out_jokers)
                    if self.out_jokers
                    else self.o["going_out"]
                )
            else:
                out.append(_points(self.hands[seat], self.o))
        return out


def _layable(
    melds: list[tuple[Meld, list[int], int]], held: int
) -> list[tuple[Meld, list[int], int]]:
    """The melds, in order, that a hand of ``held`` cards can lay and keep one to discard."""
    laid = []
    for meld in melds:
        if held - len(meld[1]) >= 1:
            laid.append(meld)
            held -= len(meld[1])
    return laid


def simulate_game(
    ruleset: Any,
    players: int,
    seed: int = 0,
    *,
    corrupt_mode: str | None = None,
    sheet: bool = False,
) -> Json:
    """One complete legal game (or, with ``corrupt_mode``, one with exactly one defect whose
    place is in ``meta["corruption"]``)."""
    rules = resolve(ruleset)
    if isinstance(rules, str):
        raise ValueError(rules)
    o = rules.options
    if (
        not o["min_players"] <= players <= o["max_players"]
        or players * o["hand_size"] + 1 >= rules.size
    ):
        raise ValueError(f"{players} players cannot play {rules.preset}")
    if corrupt_mode is not None and corrupt_mode not in CORRUPTIONS:
        raise ValueError(f"unknown corruption {corrupt_mode!r}")
    rng = random.Random(seed)
    names = [f"Player {i + 1}" for i in range(players)]
    first = rng.randrange(players)
    running: list[Any] = [0] * players
    deals: list[Json] = []
    traces: list[list[TurnTrace]] = []
    number = 0
    while True:
        dealer = (first + number) % players
        deal = _Deal(rules, players, dealer, rng)
        while not deal.play():
            deal = _Deal(rules, players, dealer, rng)
        points = deal.points()
        running = [a + b for a, b in zip(running, points, strict=True)]
        record_deal: Json = {"dealer": dealer}
        if not sheet:
            record_deal["hands"] = [[card_name(c) for c in h] for h in deal.dealt]
            record_deal["stock"] = [card_name(c) for c in deal.stock_top_first]
            record_deal["turns"] = deal.turns
        record_deal.update(
            out=deal.out,
            out_jokers=deal.out_jokers,
            left=[[card_name(c) for c in range(KINDS) for _ in range(h[c])] for h in deal.hands],
            points=points,
            running=list(running),
        )
        deals.append(record_deal)
        traces.append(deal.trace)
        number += 1
        limit = o["loss_limit"]
        if (max(running) >= limit) if limit is not None else number >= rules.deals_for(players):
            break
    record: Json = {
        "format": "raspis-rummy/1",
        "ruleset": ruleset,
        "players": names,
        "first_dealer": first,
        "deals": deals,
        "totals": running,
    }
    if corrupt_mode is None:
        return record
    corrupted = corrupt(record, traces, corrupt_mode, rng)
    if corrupted is None:  # no place for this defect in this game: play another
        return simulate_game(ruleset, players, seed + 7919, corrupt_mode=corrupt_mode, sheet=sheet)
    return corrupted


def simulate_games(
    ruleset: Any,
    players: int,
    games: int,
    seed: int = 0,
    *,
    corrupt: str | None = None,
    sheet: bool = False,
) -> Iterator[Any]:
    for g in range(games):
        yield simulate_game(
            ruleset, players, seed * 1_000_003 + g, corrupt_mode=corrupt, sheet=sheet
        )
