"""Corruptions: exactly one defect, injected at a random, deterministic place of a simulated
game and located in ``meta["corruption"]`` (the modes are described in the package's
docstring).

A clean run of the same game records the spots where a searched mode can be injected
(``Plan.recording``); the real run injects the chosen one while playing, so that the
defect is the record's only error.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from ..findings import Code
from ..scores import exact, plain
from ..tricks.rulesets import DealKind, DemandSuits, Ruleset, ScheduleName, TrumpMode
from .oracle import STAR, Call, Deal, Json, Play, Rules, rank_of, suit_of


class Corruption(StrEnum):
    """The defects ``simulate_game(corrupt=…)`` can inject, one per record (the package's
    docstring says how each is made)."""

    REVOKE = "revoke"
    MUST_TRUMP = "must_trump"
    CARD_PLAYED_TWICE = "card_played_twice"
    HOOK = "hook"
    THREE_PASSES = "three_passes"
    DARK_PASS = "dark_pass"
    WRONG_SCORE = "wrong_score"
    WRONG_TOTAL = "wrong_total"
    WRONG_DEALER = "wrong_dealer"
    DUPLICATE_CARD = "duplicate_card"
    JOKER_DEMAND = "joker_demand"
    WRONG_SCHEDULE = "wrong_schedule"
    BAD_CLAIM = "bad_claim"


CORRUPTIONS: Final = tuple(Corruption)

CORRUPTION_CODES: Final = {
    Corruption.REVOKE: Code.PLAY_REVOKE,
    Corruption.MUST_TRUMP: Code.PLAY_MUST_TRUMP,
    Corruption.CARD_PLAYED_TWICE: Code.PLAY_NOT_HELD,
    Corruption.HOOK: Code.BID_HOOK,
    Corruption.THREE_PASSES: Code.BID_THREE_PASSES,
    Corruption.DARK_PASS: Code.BID_DARK,
    Corruption.WRONG_SCORE: Code.RESULT_SCORE,
    Corruption.WRONG_TOTAL: Code.RESULT_TOTAL,
    Corruption.WRONG_DEALER: Code.DEAL_DEALER,
    Corruption.DUPLICATE_CARD: Code.DEAL_DUPLICATE_CARD,
    Corruption.JOKER_DEMAND: Code.PLAY_JOKER_DEMAND,
    Corruption.WRONG_SCHEDULE: Code.DEAL_SCHEDULE,
    Corruption.BAD_CLAIM: Code.CLAIM_BEATEN,
}
"""The finding code (docs/format.md) each corruption must produce, and nothing else of error level.

Under a ruleset with ``revoke_penalty`` (georgian) the ``play.revoke`` and ``play.must_trump``
findings are of severity ``penalty`` and the fine is in the claimed scores: the record stays
``verified``.
"""


PLAY_MODES: Final = (
    Corruption.REVOKE,
    Corruption.MUST_TRUMP,
    Corruption.CARD_PLAYED_TWICE,
    Corruption.JOKER_DEMAND,
)
SEARCHED_MODES: Final = (*PLAY_MODES, Corruption.HOOK, Corruption.BAD_CLAIM)
NEEDS_HANDS: Final = (*PLAY_MODES, Corruption.DUPLICATE_CARD, Corruption.BAD_CLAIM)
#: Claims are made, and looked for, only in a deal's last tricks: the simulator checks them
#: by trying every play (``Rules.claim_answer``), which grows fast with the tricks left.
CLAIM_TRICKS: Final = 3


@dataclass(frozen=True, slots=True)
class Spot:
    """A place where a defect can be injected, found in a clean run of the same game."""

    deal: int  #: 0-based
    trick: int = -1  #: 0-based; -1 where not applicable
    play: int = -1  #: 0-based index in the trick
    seat: int = -1
    cards: tuple[int, ...] = ()  #: candidate cards (or the forced bid, for the hook)
    joker: int = -1  #: joker_demand: the leader's joker and the suit it names
    named: int = -1
    follower: int = -1  #: joker_demand: the seat that answers with a lower card


@dataclass(slots=True)
class Plan:
    """What to corrupt: ``recording`` collects spots; otherwise ``target`` is injected."""

    mode: Corruption | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    recording: bool = False
    spots: list[Spot] = field(default_factory=list)
    target: Spot | None = None
    deal: int = -1  #: for modes injected at a chosen deal (or the first possible after it)
    seat: int = -1  #: three_passes: the seat that keeps passing
    done: bool = False
    location: dict[str, Any] | None = None
    pending: tuple[int, int, int] | None = None  #: joker_demand: (trick, seat, card) to play

    def found(self, deal: int, trick: int = -1, play: int = -1, seat: int = -1) -> None:
        def opt(value: int) -> int | None:
            return None if value < 0 else value + 1

        mode = self.mode
        assert mode is not None, "a plan finds a place for its mode only"
        self.done = True
        self.location = {
            "mode": str(mode),
            "code": str(CORRUPTION_CODES[mode]),
            "deal": opt(deal),
            "trick": opt(trick),
            "play": opt(play),
            "seat": None if seat < 0 else seat,
        }


class Corrupter(Rules):
    """The plan's defect, injected as the game is played."""

    plan: Plan

    def _duplicate(self, deal: Deal) -> None:
        """``duplicate_card``: seat s gets another copy of a card that seats before it hold.

        The replay counts copies in seat order, so the excess copy is found at seat s. No seat
        holds more copies than the deck has (two of a 36-card card in one hand would make its
        second play ``play.not_held`` as well), and the turned-up trump card stays put.
        """
        plan = self.plan
        if plan.mode != Corruption.DUPLICATE_CARD or plan.done or deal.index < plan.deal:
            return
        copies = self.deck_name.copies
        hands = deal.hands
        choices: list[tuple[int, int, int]] = []
        for s in range(self.n):
            for x in sorted(set(hands[s]).union(*hands[:s])):
                if x in self.jokers or any(x in h for h in hands[s + 1 :]):
                    continue
                own = hands[s].count(x)
                k = copies + 1 - own - sum(h.count(x) for h in hands[:s])
                spare = [c for c in hands[s] if c != x and c != deal.trump_card]
                if k >= 1 and own + k <= copies and len(spare) >= k:
                    choices.append((s, x, k))
        if not choices:
            return  # try the next deal
        s, x, k = plan.rng.choice(choices)
        for _ in range(k):
            spare = [c for c in hands[s] if c != x and c != deal.trump_card]
            hands[s].remove(plan.rng.choice(spare))
            hands[s].append(x)
        plan.found(deal.index, seat=s)

    def _claim(self, deal: Deal, t: int, leader: int, hands: list[list[int]], claims: bool) -> bool:
        """Whether the leader of trick ``t`` claims the rest here: with ``claims``, when he can
        take every remaining trick; ``bad_claim``, at its spot, when he cannot (a clean run
        notes the spots: the last tricks' leaders who cannot)."""
        if t < deal.cards - CLAIM_TRICKS:
            return False
        plan = self.plan
        if plan.mode == Corruption.BAD_CLAIM and not plan.done:
            if plan.recording:
                if self.claim_answer(hands, leader, leader, t) is False:
                    plan.spots.append(Spot(deal.index, t, seat=leader))
                return False
            if plan.target == Spot(deal.index, t, seat=leader):
                plan.found(deal.index, t, seat=leader)
                return True
            return False
        return claims and self.claim_answer(hands, leader, leader, t) is True

    def _three_passes_policy(
        self, deal: Deal, seat: int, banned: bool, last: bool, before: int
    ) -> bool:
        """``three_passes``: from the plan's deal on, its seat passes whenever it may; once
        two passes make the third illegal, it passes anyway. True when the seat passes."""
        plan = self.plan
        if (
            plan.mode != Corruption.THREE_PASSES
            or plan.done
            or seat != plan.seat
            or deal.index < plan.deal
        ):
            return False
        if last and self.r.hook and before == deal.cards:
            return False  # a pass would also break the hook
        if banned:
            plan.found(deal.index, seat=seat)
        return True

    def _corrupt_play(
        self,
        deal: Deal,
        t: int,
        k: int,
        seat: int,
        plays: list[Play],
        hands: list[list[int]],
        played: list[list[int]],
    ) -> Play | None:
        """The bad play of a play corruption here, or None; in a clean run, notes the spots."""
        plan = self.plan
        mode = plan.mode
        if mode not in PLAY_MODES or plan.done:
            return None
        if plan.pending is not None:  # joker_demand: the answer below the highest
            trick, who, card = plan.pending
            if (trick, who) != (t, seat):
                return None
            plan.pending = None
            plan.found(deal.index, t, k, seat)
            return Play(card)
        if plan.recording:
            plan.spots.extend(self._spots(deal, t, k, seat, plays, hands, played[seat]))
            return None
        target = plan.target
        if mode == Corruption.JOKER_DEMAND:
            if target is None or (target.deal, target.trick, k) != (deal.index, t, 0):
                return None
            plan.pending = (t, target.follower, plan.rng.choice(target.cards))
            return Play(target.joker, Call.LEAD_HIGHEST, target.named)
        if target is None or (target.deal, target.trick, target.play) != (deal.index, t, k):
            return None
        plan.found(deal.index, t, k, seat)
        return Play(plan.rng.choice(target.cards))

    def _spots(
        self,
        deal: Deal,
        t: int,
        k: int,
        seat: int,
        plays: list[Play],
        hands: list[list[int]],
        played: list[int],
    ) -> list[Spot]:
        mode = self.plan.mode
        index = deal.index
        hand = hands[seat]
        face = [c for c in hand if c not in self.jokers]
        if mode == Corruption.CARD_PLAYED_TWICE:
            again = sorted({c for c in played if c not in self.jokers and c not in hand})
            return [Spot(index, t, k, seat, tuple(again))] if again else []
        if mode == Corruption.JOKER_DEMAND:
            return self._demand_spots(index, t, seat, hands) if k == 0 else []
        led, trump, _ = self._context(plays)
        if k == 0 or led < 0:
            return []
        if mode == Corruption.REVOKE:
            if not any(suit_of(c) == led for c in face):
                return []
            others = sorted({c for c in face if suit_of(c) != led})
            return [Spot(index, t, k, seat, tuple(others))] if others else []
        if not self.r.must_trump or not 0 <= trump != led:  # must_trump
            return []
        if any(suit_of(c) == led for c in face) or not any(suit_of(c) == trump for c in face):
            return []
        others = sorted({c for c in face if suit_of(c) != trump})
        return [Spot(index, t, k, seat, tuple(others))] if others else []

    def _demand_spots(self, index: int, t: int, leader: int, hands: list[list[int]]) -> list[Spot]:
        """joker_demand: the leader may demand a suit of which a follower holds two ranks."""
        if Call.LEAD_HIGHEST not in self.declarations:
            return []
        if self.r.joker_demand_first_trick_only and t > 0:
            return []
        jokers = sorted({c for c in hands[leader] if c in self.jokers})
        spots = []
        for named in self._nameable(Call.LEAD_HIGHEST) if jokers else []:
            suit = self.trump if named == STAR else named
            for k in range(1, self.n):
                follower = (leader + k) % self.n
                held = [c for c in hands[follower] if c not in self.jokers and suit_of(c) == suit]
                top = max((rank_of(c) for c in held), default=-1)
                lower = tuple(sorted({c for c in held if rank_of(c) < top}))
                if lower:
                    for joker in jokers:
                        spots.append(
                            Spot(index, t, k, follower, lower, joker, named, follower=follower)
                        )
        return spots


def mutate(record: Json, plan: Plan, players: int) -> None:
    """The corruptions of the score sheet: one claimed score, total or dealer is wrong."""
    rng = plan.rng
    deals = record["deals"]
    if plan.mode == Corruption.WRONG_SCORE:
        index = rng.randrange(len(deals))
        seat = rng.randrange(players)
        scores = deals[index]["scores"]
        scores[seat] = plain(exact(scores[seat]) + rng.choice([-10, -5, -1, 1, 5, 10]))
        plan.found(index, seat=seat)
    elif plan.mode == Corruption.WRONG_TOTAL:
        seat = rng.randrange(players)
        totals = record["totals"]
        totals[seat] = plain(exact(totals[seat]) + rng.choice([-10, -5, -1, 1, 5, 10]))
        plan.found(-1, seat=seat)
    elif plan.mode == Corruption.WRONG_DEALER:
        index = rng.randrange(len(deals))
        deal = deals[index]
        deal["dealer"] = (deal["dealer"] + rng.randrange(1, players)) % players
        plan.found(index)


_BIDS: Final = (Corruption.HOOK, Corruption.THREE_PASSES, Corruption.DARK_PASS)


def check_applicable(ruleset: Ruleset, corrupt: str, sheet: bool) -> None:
    if corrupt not in CORRUPTIONS:
        raise ValueError(f"unknown corruption {corrupt!r}; known: {', '.join(CORRUPTIONS)}")
    name = ruleset.preset
    why = ""
    if sheet and corrupt in NEEDS_HANDS:
        why = "a sheet record has no plays or hands"
    elif corrupt == Corruption.MUST_TRUMP and not ruleset.must_trump:
        why = "must_trump is off"
    elif (
        corrupt in (Corruption.HOOK, Corruption.THREE_PASSES, Corruption.DARK_PASS)
        and ruleset.auction
    ):
        why = "bids come from an auction"
    elif corrupt == Corruption.HOOK and not ruleset.hook:
        why = "the hook (last_bidder_restriction) is off"
    elif corrupt == Corruption.THREE_PASSES and not ruleset.three_passes:
        why = "three_passes_rule is off"
    elif corrupt == Corruption.DARK_PASS and not ruleset.dark_bids:
        why = "dark_bids is off"
    elif corrupt == Corruption.JOKER_DEMAND and (
        not ruleset.options["jokers"]
        or Call.LEAD_HIGHEST not in ruleset.options["declarations"]
        or (ruleset.trump is TrumpMode.ROTATING and ruleset.lead_highest_suits is DemandSuits.TRUMP)
    ):
        why = "no joker can demand a suit"
    elif (
        corrupt == Corruption.WRONG_SCHEDULE
        and ruleset.schedule is ScheduleName.FREE
        and ruleset.kinds_allowed >= frozenset(DealKind)
    ):
        why = "a free schedule allows every deal"
    if why:
        raise ValueError(f"cannot corrupt {name} with {corrupt}: {why}")
