"""The replay: a parsed record → the report of FORMAT.md, deal by deal, play by play.

Every rule check appends a finding and the replay goes on with the play as recorded
(and with the dealer, leader and trump the rules give, RULES §10.11), so one report lists
every problem. Hands are bitmasks (``cards.py``); the 104-card deck's second copies live
in a second mask per seat, so a twin is removed from ``doubles`` first.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .auction import check_auction
from .cards import (
    CARD_BITS,
    DECL_SHIFT,
    NAMED_TRUMP,
    SUIT_MASKS,
    SUIT_SHIFT,
    X1,
    Declaration,
    card_name,
    deck_mask,
    play_name,
)
from .findings import Code, Finding, Severity, pointer
from .parse import NO_TRUMP, Deal, Record, parse_record
from .report import DealResult, JokerPlay, Report, malformed, verdict_of
from .rulesets import Number, Ruleset, Score, exact, resolve_ruleset, schedule_for
from .scoring import binary_float, deal_score, plain

HIGH = Declaration.HIGH
LOW = Declaration.LOW
PLAIN = Declaration.PLAIN
LEAD_HIGHEST = Declaration.LEAD_HIGHEST
LEAD_LOWEST = Declaration.LEAD_LOWEST

#: Hands as bitmasks, and the cards a seat holds twice (``_hand_masks``).
_Masks = tuple[list[int], list[int]]


def verify(obj: Any, stored_rulesets: Mapping[str, Any] | None = None) -> Report:
    """A decoded ``raspis/1`` record → its report. Never raises on bad input."""
    record, findings = parse_record(obj, stored_rulesets)
    if record is None:
        ruleset = None
        if isinstance(obj, dict):
            ruleset = resolve_ruleset(obj.get("ruleset"), stored_rulesets)[0]
        return malformed(findings, ruleset)
    return replay(record)


def replay(record: Record) -> Report:
    game = _Game(record)
    for deal in record.deals:
        game.play_deal(deal)
    return game.report()


class _Game:
    """The state carried from deal to deal: running totals, pass runs, findings."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.players = record.players
        self.n = len(record.players)
        # Ranges made once: in Python 3.11 a range costs more to make than to walk.
        self.seats = range(self.n)
        self.following = range(1, self.n)  #: the places of the followers in a trick
        self.ruleset = record.ruleset
        self.first_dealer = record.first_dealer
        self.rotating = self.ruleset.trump == "rotating"
        table = _table(self.ruleset, self.n)
        self.deck = table.deck
        self.deck_bits = table.deck_bits
        self.copies = table.copies
        self.deck_size = table.deck_size
        self.schedule = table.schedule
        self.obliging = table.obliging
        self.trump_obliging = table.trump_obliging
        self.plain_codes = table.plain_codes
        self.turns = table.turns
        self.readings = table.readings
        self.scale = table.scale
        self.binary = table.binary
        self.jokers = table.jokers
        self.findings: list[Finding] = []
        self.running: list[Score] = [0] * self.n
        self.scaled_running = [0] * self.n
        self.score_cache = self.ruleset.scores
        self.pass_runs = [0] * self.n
        self.results: list[DealResult] = []

    def _score(self, value: Number) -> Score:
        if isinstance(value, Fraction):
            if value.denominator == 1:
                return value.numerator
            return binary_float(value) if self.binary else value
        return value

    # -- findings -------------------------------------------------------------------------

    def find(
        self,
        code: Code,
        message: str,
        deal: int | None = None,
        *,
        trick: int | None = None,
        play: int | None = None,
        seat: int | None = None,
        expected: Any = None,
        actual: Any = None,
        path: str | None = None,
        severity: Severity | None = None,
    ) -> None:
        player = None if seat is None else self.players[seat]
        self.findings.append(
            Finding(
                code, message, severity, deal, trick, play, seat, player, expected, actual, path
            )
        )

    # -- one deal ----------------------------------------------------------------------------

    def play_deal(self, deal: Deal) -> None:
        """Replay one deal and compare its claims.

        A legal deal is the common case, so each rule is first tested inline with one
        cheap comparison and the method that words the finding is called only when that
        test fails: per deal, the checks that find nothing cost no calls.
        """
        n = self.n
        index = deal.index
        number = index + 1
        ruleset = self.ruleset
        cards = deal.cards
        kind = deal.kind
        dealer = (self.first_dealer + index) % n
        if deal.dealer is not None and deal.dealer != dealer:
            self.find(
                Code.DEAL_DEALER,
                f"deal {number} is dealt by seat {dealer}, not {deal.dealer}",
                number,
                expected=dealer,
                actual=deal.dealer,
                path=pointer("deals", index, "dealer"),
            )
        schedule = self.schedule
        if schedule is None or index >= len(schedule) or schedule[index] != (cards, kind):
            self._check_schedule(deal, number)
        if cards * n > self.deck_size:
            self.find(
                Code.DEAL_CARDS,
                f"{_count(cards, 'card')} each for {n} players is more than the "
                f"{self.deck_size}-card deck",
                number,
                expected=self.deck_size // n,
                actual=cards,
                path=pointer("deals", index, "cards"),
            )
        masks = jokers_held = None
        if deal.written_hands is not None:
            masks, jokers_held = self._dealt(deal, number)
        trump = self._trump(deal, number, dealer, masks)
        bids, blind, last_bidder = self._bidding(deal, number, dealer)
        fines: list[Number] = [0] * n
        winners: list[int] = []
        joker_plays: list[JokerPlay] = []
        audit = "full"
        if deal.tricks is not None:
            first = dealer if ruleset.first_leader_is_dealer else (dealer + 1) % n
            if masks is None:
                masks = self._masks_from_plays(deal, number, first, trump)
            singles, doubles = masks
            taken = self._run(
                deal,
                number,
                first,
                singles,
                doubles,
                trump,
                fines,
                winners,
                joker_plays,
                checks=True,
            )
            if deal.taken is not None and deal.taken != taken:
                self._compare(
                    deal.taken,
                    taken,
                    Code.RESULT_TAKEN,
                    number,
                    "number of tricks taken",
                    "taken",
                    index,
                )
        else:
            audit = "sheet"
            taken = list(deal.taken or [0] * n)
            if sum(taken) != cards:
                self.find(
                    Code.RESULT_SUM,
                    f"the tricks taken add up to {sum(taken)}, not {cards}",
                    number,
                    expected=cards,
                    actual=sum(taken),
                    path=pointer("deals", index, "taken"),
                )
        # Scores: a (kind, cards, bid, blind, taken) key recurs all game long, and in every
        # game of the preset, so each is computed once (``Ruleset.scores``). Running totals
        # are scaled ints (``_Table.scale``), turned back into scores for the report.
        scores: list[Score] = []
        totals: list[Score] = []
        scale = self.scale
        running = self.scaled_running
        cache = self.score_cache
        binary = self.binary
        for seat in self.seats:
            key = (kind, cards, None if bids is None else bids[seat], blind[seat], taken[seat])
            known = cache.get(key)
            if known is None:
                exact_score = deal_score(ruleset, *key)
                known = cache[key] = (self._score(exact_score), int(exact_score * scale))
            score, scaled = known
            if fines[seat]:
                scaled -= int(fines[seat] * scale)
                score = self._score(Fraction(scaled, scale))
            scores.append(score)
            running[seat] = total = running[seat] + scaled
            if total % scale == 0:
                totals.append(total // scale)
            elif binary:  # exact, and the float ``_score`` would make of the fraction
                try:
                    totals.append(total / scale)
                except OverflowError:  # a claimed taken of 10**400: past any float
                    totals.append(Fraction(total, scale))
            else:
                totals.append(Fraction(total, scale))
        self.running = totals
        if deal.scores is not None and deal.scores != scores:
            self._compare(
                deal.scores, scores, Code.RESULT_SCORE, number, "deal score", "scores", index
            )
        if deal.running is not None and deal.running != totals:
            self._compare(
                deal.running,
                totals,
                Code.RESULT_RUNNING,
                number,
                "running total",
                "running",
                index,
            )
        if jokers_held is None:
            jokers_held = self._jokers_played(deal, joker_plays)
        self.results.append(
            DealResult(
                number,
                dealer,
                None if self.rotating else trump,
                bids,
                taken,
                scores,
                totals,
                kind,
                cards,
                audit,
                blind,
                last_bidder,
                deal.declarer,
                joker_plays,
                winners,
                jokers_held,
            )
        )

    def _jokers_played(self, deal: Deal, joker_plays: list[JokerPlay]) -> list[int] | None:
        """``DealResult.jokers_held`` of a deal without hands: a played deal's hands are its
        plays; a sheet deal's are unknown."""
        if deal.tricks is None:
            return None
        held = [0] * self.n
        for joker in joker_plays:
            held[joker.seat] += 1
        return held

    def _check_schedule(self, deal: Deal, number: int) -> None:
        if self.schedule is None:
            if deal.kind not in self.ruleset.kinds_allowed:
                self.find(
                    Code.DEAL_SCHEDULE,
                    f"a {deal.kind} deal is not allowed here",
                    number,
                    expected=sorted(self.ruleset.kinds_allowed),
                    actual=deal.kind,
                    path=pointer("deals", deal.index),
                )
            return
        if deal.index < len(self.schedule):
            cards, kind = self.schedule[deal.index]
            if (deal.cards, deal.kind) != (cards, kind):
                self.find(
                    Code.DEAL_SCHEDULE,
                    f"deal {number} should be {cards} cards "
                    f"{kind}, not {deal.cards} cards {deal.kind}",
                    number,
                    expected={"cards": cards, "kind": kind},
                    actual={"cards": deal.cards, "kind": deal.kind},
                    path=pointer("deals", deal.index),
                )
        elif deal.index == len(self.schedule):
            self.find(
                Code.GAME_EXTRA_DEAL,
                f"the game has {len(self.schedule)} deals; deal {number} is one too many",
                number,
                expected=len(self.schedule),
                actual=len(self.record.deals),
                path=pointer("deals", deal.index),
            )

    def _dealt(self, deal: Deal, number: int) -> tuple[_Masks, list[int]]:
        """The dealt hands as bitmasks, checked (RULES §1, FORMAT ``deal.*``), and the jokers
        each seat was dealt (``DealResult.jokers_held``, which the stored rows keep).

        The parser summed each hand's bits (``Deal.hand_masks``). Without carries the sum of
        the hands is their union, and a carry (a repeated card) shows as fewer bits than
        cards: such a deal, a hand of the wrong size, a card not in the deck, a card spelt
        otherwise and the 104-card deck (whose repeats are legal) take the finding path.
        """
        masks = deal.hand_masks
        hands = deal.written_hands or []
        n = len(hands)
        if masks is not None and self.copies == 1:
            cards = deal.cards
            union = sum(masks)
            if (
                union.bit_count() == cards * n
                and list(map(len, hands)) == [cards] * n
                and not union & ~self.deck_bits
            ):
                jokers = self.ruleset.joker_mask
                return (list(masks), [0] * n), [(mask & jokers).bit_count() for mask in masks]
        cards_dealt = deal.hands or []
        held = [sum(map(hand.count, self.jokers)) for hand in cards_dealt]
        return self._hand_masks(deal, number, cards_dealt, from_plays=False), held

    def _hand_masks(
        self, deal: Deal, number: int, hands: list[list[int]], from_plays: bool
    ) -> _Masks:
        """Check hands (RULES §1, FORMAT ``deal.*``) and read them into bitmasks; ``doubles``
        holds the cards a seat has twice (the 104-card deck)."""
        self._check_hands(deal, number, hands, from_plays)
        singles = [0] * len(hands)
        doubles = [0] * len(hands)
        for seat, hand in enumerate(hands):
            for card in hand:
                bit = 1 << card
                if singles[seat] & bit:
                    doubles[seat] |= bit
                singles[seat] |= bit
        return singles, doubles

    def _check_hands(
        self, deal: Deal, number: int, hands: list[list[int]], from_plays: bool
    ) -> None:
        counts: dict[int, int] = {}
        for seat, hand in enumerate(hands):
            where = ("deals", deal.index, "tricks" if from_plays else "hands")
            if not from_plays and len(hand) != deal.cards:
                self.find(
                    Code.DEAL_CARDS,
                    f"dealt {_count(len(hand), 'card')}, not {deal.cards}",
                    number,
                    seat=seat,
                    expected=deal.cards,
                    actual=len(hand),
                    path=pointer(*where, seat) if not from_plays else None,
                )
            for i, card in enumerate(hand):
                if not self.deck_bits >> card & 1:
                    self.find(
                        Code.DEAL_UNKNOWN_CARD,
                        f"{card_name(card)} is not in the {self.deck}-card deck",
                        number,
                        seat=seat,
                        actual=card_name(card),
                        path=pointer(*where) if from_plays else pointer(*where, seat, i),
                    )
                    continue
                seen = counts.get(card, 0) + 1
                counts[card] = seen
                if seen > self.copies:
                    self.find(
                        Code.DEAL_DUPLICATE_CARD,
                        f"{card_name(card)} is dealt {seen} times",
                        number,
                        seat=seat,
                        expected=self.copies,
                        actual=seen,
                        path=pointer(*where) if from_plays else pointer(*where, seat, i),
                    )

    # -- trump -------------------------------------------------------------------------------

    def _trump(self, deal: Deal, number: int, dealer: int, masks: _Masks | None) -> int:
        """The deal's trump suit (-1: none) by RULES §6 and §10.14; a wrong claim is found."""
        ruleset = self.ruleset
        if ruleset.trump == "rotating" or deal.kind == "no_trump":
            if deal.trump_given and deal.trump != NO_TRUMP:
                why = (
                    "trumps rotate by trick"
                    if ruleset.trump == "rotating"
                    else "a no-trump deal has no trump"
                )
                self.find(
                    Code.DEAL_TRUMP,
                    f"{why}, yet trump is given",
                    number,
                    expected=None,
                    actual="SCDH"[deal.trump],
                    path=pointer("deals", deal.index, "trump"),
                )
            return NO_TRUMP
        if ruleset.trump == "fixed":
            trump = ruleset.fixed_trump
        elif ruleset.trump == "declared" and ruleset.bids_in(deal.kind):
            if not deal.trump_given:
                self.find(
                    Code.DEAL_TRUMP,
                    "the declarer's trump is not given",
                    number,
                    path=pointer("deals", deal.index, "trump"),
                )
            return deal.trump
        elif ruleset.trump == "declared" and deal.trump_given:
            return deal.trump
        else:
            from_card = self._trump_from_card(deal, number, dealer, masks)
            if from_card is None:
                return deal.trump if deal.trump_given else NO_TRUMP
            trump = from_card
        if deal.trump_given and deal.trump != trump:
            self.find(
                Code.DEAL_TRUMP,
                f"the trump is {_suit(trump)}, not {_suit(deal.trump)}",
                number,
                expected=_suit_code(trump),
                actual=_suit_code(deal.trump),
                path=pointer("deals", deal.index, "trump"),
            )
        return trump

    def _trump_from_card(
        self, deal: Deal, number: int, dealer: int, masks: _Masks | None
    ) -> int | None:
        """The suit of the turned-up trump card (RULES §6), checked against where it lies.

        ``masks`` are the dealt hands as bitmasks (``_hand_masks``), None without hands.
        """
        ruleset = self.ruleset
        card = deal.trump_card
        if card is None:
            if deal.tricks is not None:
                self.find(
                    Code.DEAL_TRUMP_CARD,
                    "the turned-up trump card is missing",
                    number,
                    path=pointer("deals", deal.index, "trump_card"),
                )
            return None
        if not self.deck_bits >> card & 1:
            self.find(
                Code.DEAL_UNKNOWN_CARD,
                f"the trump card {card_name(card)} is not in the {self.deck}-card deck",
                number,
                actual=card_name(card),
                path=pointer("deals", deal.index, "trump_card"),
            )
        source = ruleset.trump_card_source
        if source != "any" and masks is not None:
            everything_dealt = deal.cards * self.n >= self.deck_size
            in_hand = [seat for seat, held in enumerate(masks[0]) if held >> card & 1]
            if source == "dealer_last" or (source == "stock" and everything_dealt):
                if dealer not in in_hand:
                    self.find(
                        Code.DEAL_TRUMP_CARD,
                        f"the trump card {card_name(card)} must be the dealer's last card",
                        number,
                        seat=dealer,
                        actual=card_name(card),
                        path=pointer("deals", deal.index, "trump_card"),
                    )
            elif source == "stock" and in_hand and self.copies == 1:
                self.find(
                    Code.DEAL_TRUMP_CARD,
                    f"the trump card {card_name(card)} comes from the stock but is in a hand",
                    number,
                    seat=in_hand[0],
                    actual=card_name(card),
                    path=pointer("deals", deal.index, "trump_card"),
                )
        if card >= X1 or self.ruleset.joker_mask >> card & 1:
            return NO_TRUMP
        return card // 13

    # -- bidding -----------------------------------------------------------------------------

    def _bidding(
        self, deal: Deal, number: int, dealer: int
    ) -> tuple[list[int] | None, list[bool], int | None]:
        """Bids by RULES §3 (hook, three passes, blind bids, auction); None without bidding."""
        n = self.n
        ruleset = self.ruleset
        where = ("deals", deal.index, "bids")
        if not ruleset.bids_in(deal.kind):
            if deal.bids:
                self.find(
                    Code.BID_UNEXPECTED,
                    f"a {deal.kind.replace('_', '-')} deal has no bids",
                    number,
                    path=pointer(*where),
                )
            return None, [False] * n, None
        given = deal.bids or []
        first = dealer if ruleset.first_bidder_is_dealer else (dealer + 1) % n
        cards = deal.cards
        blind = [deal.kind == "dark"] * n
        count_passes = ruleset.three_passes and not ruleset.auction
        pass_runs = self.pass_runs
        order = self.turns[first]
        # The common deal, a plain bid in range from every seat, has nothing to find but the
        # passes: its bids are taken as they are, and only a pass costs a call.
        stated = deal.dark is None and len(given) == n and min(given) >= 0 and max(given) <= cards
        bids = list(given) if stated else [0] * n
        if count_passes or not stated:
            for seat in order:  # in bidding order, the order of the findings
                if not stated:
                    bids[seat] = self._bid(deal, number, seat, blind, where)
                if not count_passes:
                    continue
                if bids[seat] != 0:
                    pass_runs[seat] = 0
                else:
                    self._count_pass(seat, number, where)
        if ruleset.auction:
            for problem in check_auction(deal, bids, first, n):
                self.find(
                    Code.BID_AUCTION,
                    problem.message,
                    number,
                    seat=problem.seat,
                    expected=problem.expected,
                    actual=problem.actual,
                    path=pointer("deals", deal.index, *problem.where),
                )
            return bids, blind, None
        last = order[-1]
        if ruleset.hook and sum(bids) == deal.cards:
            self.find(
                Code.BID_HOOK,
                f"the last bidder may not make the bids add up to {deal.cards}",
                number,
                seat=last,
                actual=bids[last],
                path=pointer(*where, last),
            )
        return bids, blind, last

    def _bid(
        self, deal: Deal, number: int, seat: int, blind: list[bool], where: tuple[Any, ...]
    ) -> int:
        """One seat's bid as stated, its missing, range and blind findings made; a blind bid
        is marked in ``blind``. ``_bidding`` calls it only for a deal with something to find.
        """
        given = deal.bids or []
        if seat < len(given):
            bid = given[seat]
            dark = deal.dark is not None and deal.dark[seat]
        else:
            self.find(Code.BID_MISSING, "no bid is given", number, seat=seat, path=pointer(*where))
            bid, dark = 0, False
        cards = deal.cards
        if not 0 <= bid <= cards:
            self.find(
                Code.BID_RANGE,
                f"bid {bid} with {_count(cards, 'card')}",
                number,
                seat=seat,
                expected=[0, cards],
                actual=bid,
                path=pointer(*where, seat),
            )
        if dark and deal.kind != "dark":
            if not self.ruleset.dark_bids:
                problem = "blind bids are not allowed"
            else:
                problem = "a blind pass is not allowed" if bid == 0 else ""
            if problem:
                self.find(
                    Code.BID_DARK,
                    problem,
                    number,
                    seat=seat,
                    actual=bid,
                    path=pointer(*where, seat),
                )
            blind[seat] = True
        return bid

    def _count_pass(self, seat: int, number: int, where: tuple[Any, ...]) -> None:
        """A pass: one more in the seat's run, and the third in a row is found (RULES §3)."""
        self.pass_runs[seat] += 1
        if self.pass_runs[seat] >= 3:
            self.find(
                Code.BID_THREE_PASSES,
                "a third pass in a row",
                number,
                seat=seat,
                expected="a bid above 0",
                actual=0,
                path=pointer(*where, seat),
            )

    # -- play --------------------------------------------------------------------------------

    def _masks_from_plays(self, deal: Deal, number: int, first: int, trump: int) -> _Masks:
        """The hands of a deal recorded without them: the cards each seat played.

        Who played a card follows from the trick winners alone, so a silent pass (no
        checks) yields the winners, and so the seat of every play. The silent pass deals
        every seat every card, and each play it replays comes off the seat's mask: what is
        gone at the end is what the seat played. When the plays repeat no card (bits as many
        as plays, as in ``_dealt``) and the deck holds one of each, those are the hands;
        otherwise the plays are listed per seat, for ``_hand_masks`` to find the problems.
        """
        n = self.n
        tricks = deal.tricks or []
        winners: list[int] = []
        left = [_EVERY_CARD] * n
        self._run(deal, number, first, left, [0] * n, trump, [0] * n, winners, [], checks=False)
        if self.copies == 1:
            singles = [_EVERY_CARD ^ mask for mask in left]
            union = sum(singles)
            if union.bit_count() == sum(map(len, tricks)) and not union & ~self.deck_bits:
                return singles, [0] * n
        played: list[list[int]] = [[] for _ in range(n)]
        # An empty trick has no winner and keeps its leader: skip it, not a winner.
        leaders = iter([first, *winners])
        turns = self.turns
        for plays in tricks:
            if plays:
                # ``turns`` has n seats: a longer trick counts its first n plays.
                for seat, code in zip(turns[next(leaders)], plays, strict=False):
                    played[seat].append(code & CARD_BITS)
        return self._hand_masks(deal, number, played, from_plays=True)

    def _run(
        self,
        deal: Deal,
        number: int,
        leader: int,
        singles: list[int],
        doubles: list[int],
        trump: int,
        fines: list[Number],
        winners: list[int],
        joker_plays: list[JokerPlay],
        checks: bool,
    ) -> list[int]:
        """The trick loop: legality of every play (RULES §4, §5), winners, tricks taken.

        Most tricks hold face cards only (no joker, no declaration). Those are replayed
        here, in a loop shaped like the shared ceiling loop: the lead is taken before the
        loop, so that the loop over the followers needs no "is this the lead?" test, no
        joker test and no lead demand. One set test (``plain.issuperset``) sends a trick
        with anything else to ``_joker_trick``, the general loop, and so does every trick
        of the 104-card deck (``_Table.plain_codes``): this loop never looks at ``doubles``.
        The winner is tracked as the plays come; strict comparisons make the first of two
        twins win (RULES §1).
        """
        n = self.n
        obliging = self.obliging
        trump_obliging = self.trump_obliging
        plain = self.plain_codes
        turns = self.turns
        bits = _BITS
        suits = _SUITS
        rotating = self.rotating
        trick_trump = trump
        trump_mask = trump_obliging[trump] if trump >= 0 else 0
        taken = [0] * n
        tricks = deal.tricks or []
        if checks and len(tricks) != deal.cards:
            self.find(
                Code.PLAY_COUNT,
                f"{_count(len(tricks), 'trick')} played, not {deal.cards}",
                number,
                expected=deal.cards,
                actual=len(tricks),
                path=pointer("deals", deal.index, "tricks"),
            )
        stated = deal.leaders
        following = self.following
        for t, plays in enumerate(tricks):
            places = following
            if len(plays) != n:
                if checks:
                    self._check_trick(deal, number, t, plays, leader)
                if len(plays) > n:
                    plays = plays[:n]
                elif not plays:
                    continue
                else:
                    places = range(1, len(plays))
            elif stated is not None and checks and stated[t] is not None and stated[t] != leader:
                self._check_trick(deal, number, t, plays, leader)
            order = turns[leader]  # the seat of each play
            if not plain.issuperset(plays):
                best = self._joker_trick(
                    deal,
                    number,
                    t,
                    plays,
                    leader,
                    singles,
                    doubles,
                    trump,
                    fines,
                    joker_plays,
                    checks,
                )
                leader = order[best]
            else:
                code = plays[0]  # a plain play code is its card
                bit = bits[code]
                hand = singles[leader]
                rest = hand ^ bit
                if rest < hand:  # the bit was set: held (no ``&`` to make a new int)
                    singles[leader] = rest
                elif checks:
                    self._play_finding(
                        Code.PLAY_NOT_HELD, "does not hold", deal, number, t, 0, leader, code
                    )
                led = suits[code]
                follow = obliging[led]
                if rotating:
                    trick_trump = (led + 1) % 4
                    trump_mask = trump_obliging[trick_trump]
                best_card = code
                best_trump = led == trick_trump
                for k in places:
                    code = plays[k]
                    seat = order[k]
                    bit = bits[code]
                    hand = singles[seat]
                    rest = hand ^ bit
                    if rest < hand:
                        singles[seat] = hand = rest
                    else:
                        if checks:
                            self._play_finding(
                                Code.PLAY_NOT_HELD, "does not hold", deal, number, t, k, seat, code
                            )
                        hand = 0  # a card not held is not checked for following
                    suit = suits[code]
                    if suit == led:  # a trump lead is best so far, and trumps only beat it
                        if code > best_card and (suit == trick_trump or not best_trump):
                            leader, best_card = seat, code
                        continue
                    if suit == trick_trump and (not best_trump or code > best_card):
                        leader, best_card, best_trump = seat, code, True
                    if checks and hand & (follow | trump_mask):
                        self._not_followed(
                            hand,
                            follow,
                            trump_mask,
                            suit,
                            trick_trump,
                            led,
                            deal,
                            number,
                            t,
                            k,
                            seat,
                            code,
                            fines,
                        )
            taken[leader] += 1  # the winner leads the next trick
            winners.append(leader)
        if checks and deal.written_hands is not None and len(tricks) == deal.cards and any(singles):
            self._check_leftovers(deal, number, singles)
        return taken

    def _joker_trick(
        self,
        deal: Deal,
        number: int,
        t: int,
        plays: list[int],
        leader: int,
        singles: list[int],
        doubles: list[int],
        trump: int,
        fines: list[Number],
        joker_plays: list[JokerPlay],
        checks: bool,
    ) -> int:
        """One trick with a joker or a declaration in it (RULES §4, §5, §10.1–10.4).

        Returns the place in the trick of the play that wins it. A joker not played plain
        leaves the winner to ``_joker_winner``; a lead demand obliges the followers.
        """
        ruleset = self.ruleset
        jokers = ruleset.joker_mask
        obliging = self.obliging
        trump_obliging = self.trump_obliging
        rotating = self.rotating
        twins = self.copies > 1
        bits = _BITS
        suits = _SUITS
        order = self.turns[leader]
        led = -1
        trick_trump = trump
        trump_mask = trump_obliging[trump] if trump >= 0 else 0
        follow = 0
        demand = False
        decls: list[int] | None = None  # set when a joker is not played plain
        highs: list[int] = []  #: the places of the plays declared to take the trick
        trick_jokers: list[tuple[int, int, int]] | None = None
        best = best_card = 0
        best_trump = False
        for k, code in enumerate(plays):
            seat = order[k]
            card = code & CARD_BITS
            bit = bits[card]
            hand = singles[seat]
            rest = hand ^ bit
            if rest > hand:  # the bit was not set (see ``_run``)
                if checks:
                    self._play_finding(
                        Code.PLAY_NOT_HELD, "does not hold", deal, number, t, k, seat, code
                    )
                held = False
            else:
                held = checks
                if twins and doubles[seat] & bit:
                    doubles[seat] ^= bit
                else:
                    singles[seat] = hand = rest
            if bit & jokers or code > CARD_BITS:
                decl, named, fine = self._declaration(deal, number, t, k, seat, code, trump, held)
                held = held and fine
                if bit & jokers:
                    trick_jokers = trick_jokers or []
                    trick_jokers.append((k, seat, decl))
                if decl != PLAIN and decl:
                    decls = decls or [0] * len(plays)
                    decls[k] = decl
                    if decl in _HIGHS:
                        highs.append(k)
                    if k == 0:
                        if decl in (LEAD_HIGHEST, LEAD_LOWEST):
                            led = named
                            follow = obliging[led]
                            demand = decl == LEAD_HIGHEST
                            if rotating:
                                trick_trump = (led + 1) % 4
                                trump_mask = trump_obliging[trick_trump]
                        else:  # led without a suit: nobody must follow or trump (§10.1)
                            trump_mask = 0
                    continue
            suit = suits[card]
            if k == 0:
                led = suit
                follow = obliging[led]
                if rotating:
                    trick_trump = (led + 1) % 4
                    trump_mask = trump_obliging[trick_trump]
                best_card = card
                best_trump = suit == trick_trump
            else:
                if suit == trick_trump:
                    if not best_trump or card > best_card:
                        best, best_card, best_trump = k, card, True
                elif not best_trump and suit == led and card > best_card:
                    best, best_card = k, card
                if held and suit != led:
                    if hand & (follow | trump_mask):
                        self._not_followed(
                            hand,
                            follow,
                            trump_mask,
                            suit,
                            trick_trump,
                            led,
                            deal,
                            number,
                            t,
                            k,
                            seat,
                            code,
                            fines,
                        )
                elif held and demand and hand & follow & ~((bit << 1) - 1):
                    self._play_finding(
                        Code.PLAY_JOKER_DEMAND,
                        f"did not play the highest {_suit(led)}",
                        deal,
                        number,
                        t,
                        k,
                        seat,
                        code,
                    )
        if decls is not None:
            best = self._joker_winner(plays, decls, highs, led, trick_trump)
        if trick_jokers:
            for k, joker_seat, decl in trick_jokers:
                joker_plays.append(_joker_play(joker_seat, decl, k == best))
        return best

    def _check_trick(self, deal: Deal, number: int, t: int, plays: list[int], leader: int) -> None:
        """The stated leader and the size of one trick (``play.leader``, ``play.count``)."""
        stated = deal.leaders[t] if deal.leaders is not None else None
        if stated is not None and stated != leader:
            self.find(
                Code.PLAY_LEADER,
                f"leads trick {t + 1}, but {self.players[leader]} should",
                number,
                trick=t + 1,
                seat=stated,
                expected=leader,
                actual=stated,
                path=pointer("deals", deal.index, "tricks", t, "leader"),
            )
        if len(plays) != self.n:
            self.find(
                Code.PLAY_COUNT,
                f"trick {t + 1} has {_count(len(plays), 'play')}, not {self.n}",
                number,
                trick=t + 1,
                expected=self.n,
                actual=len(plays),
                path=pointer("deals", deal.index, "tricks", t),
            )

    def _declaration(
        self, deal: Deal, number: int, t: int, k: int, seat: int, code: int, trump: int, check: bool
    ) -> tuple[int, int, bool]:
        """A joker's declaration as the replay applies it (RULES §5, §10.1–10.4).

        Returns the declaration, the named suit of a lead (-1 if none), and whether the
        play passed; a wrong declaration is found once (when ``check``). The reading
        depends on the play, on whether it leads, on whether the trick is the first and
        on the trump only, so each is made once per ruleset (``_Table.readings``).
        """
        key = (code, k == 0, t == 0, trump)
        reading = self.readings.get(key)
        if reading is None:
            reading = self.readings[key] = self._read_declaration(code, k, t, trump)
        decl, suit, problem = reading
        if problem:
            return decl, suit, self._joker_problem(check, problem, deal, number, t, k, seat, code)
        return decl, suit, True

    def _read_declaration(self, code: int, k: int, t: int, trump: int) -> tuple[int, int, str]:
        """The declaration, the named suit and the problem ("" if none) of a joker play: a
        wrong declaration is read as players would, a demand that cannot stand as ``high``.
        """
        ruleset = self.ruleset
        card = code & CARD_BITS
        decl = code >> DECL_SHIFT & 7
        named = code >> SUIT_SHIFT
        problem = ""
        if not ruleset.joker_mask >> card & 1:
            return 0, -1, "declared a joker play with an ordinary card"
        if decl == 0:
            if not ruleset.joker_silent_high:
                problem = "played a joker without saying how"
            decl = HIGH
        elif decl == Declaration.UNKNOWN:
            problem = "played a joker with an unknown declaration"
            decl = HIGH
        elif decl not in ruleset.declarations:
            problem = (
                f"declared the joker {Declaration(decl).name.lower()}, which "
                f"{ruleset.preset} does not allow"
            )
        suit = -1
        if decl == LOW and k == 0:
            problem = problem or "led the joker low"
        elif decl == PLAIN and card >= X1:
            problem = problem or "played a printed joker plain, but it has no face value"
            decl = LOW
        elif decl in (LEAD_HIGHEST, LEAD_LOWEST):
            suit, why = self._named_suit(decl, named, trump, k, t)
            problem = problem or why
            if suit < 0:
                decl = HIGH
        return decl, suit, problem

    def _named_suit(self, decl: int, named: int, trump: int, k: int, t: int) -> tuple[int, str]:
        ruleset = self.ruleset
        if k > 0:
            return -1, "only the leader may demand a suit with the joker"
        if named == 0:
            return -1, "demanded with the joker without naming a suit"
        if named == NAMED_TRUMP:
            if ruleset.trump == "rotating":
                return -1, "with rotating trumps a demand must name a suit, not trumps"
            if trump < 0:
                return -1, "demanded trumps in a deal without trumps"
            suit = trump
        else:
            suit = named - 1
        if decl == LEAD_HIGHEST:
            if ruleset.lead_highest_suits == "trump" and suit != trump:
                return suit, "the joker may demand only trumps"
            if ruleset.lead_highest_suits == "suit" and named == NAMED_TRUMP:
                return suit, "the joker must demand a suit, not trumps"
        if ruleset.joker_demand_first_trick_only and t > 0:
            return suit, "the joker may demand a suit only in the first trick"
        return suit, ""

    def _joker_problem(
        self,
        check: bool,
        message: str,
        deal: Deal,
        number: int,
        t: int,
        k: int,
        seat: int,
        code: int,
    ) -> bool:
        if check:
            self._play_finding(Code.PLAY_JOKER, message, deal, number, t, k, seat, code)
        return False

    def _play_finding(
        self,
        code: Code,
        message: str,
        deal: Deal,
        number: int,
        t: int,
        k: int,
        seat: int,
        play: int,
        severity: Severity | None = None,
    ) -> None:
        where: tuple[str | int, ...] = ("deals", deal.index, "tricks", t)
        if deal.leaders is not None and deal.leaders[t] is not None:  # a trick object
            where += ("plays",)
        self.find(
            code,
            f"{message} ({play_name(play)})",
            number,
            trick=t + 1,
            play=k + 1,
            seat=seat,
            actual=play_name(play),
            path=pointer(*where, k),
            severity=severity,
        )

    def _not_followed(
        self,
        hand: int,
        follow: int,
        trump_mask: int,
        suit: int,
        trick_trump: int,
        led: int,
        deal: Deal,
        number: int,
        t: int,
        k: int,
        seat: int,
        code: int,
        fines: list[Number],
    ) -> None:
        """A play off the led suit by a seat that held the led suit or a trump (RULES §4).

        Both trick loops call it only then, so the common void-and-trumpless play costs no
        call; revoke comes before must-trump, as FORMAT.md orders one finding per play.
        """
        if hand & follow:
            self._offence(
                Code.PLAY_REVOKE,
                f"did not follow {_suit(led)}",
                deal,
                number,
                t,
                k,
                seat,
                code,
                fines,
            )
        elif suit != trick_trump and hand & trump_mask:
            self._offence(
                Code.PLAY_MUST_TRUMP, "did not play a trump", deal, number, t, k, seat, code, fines
            )

    def _offence(
        self,
        code: Code,
        message: str,
        deal: Deal,
        number: int,
        t: int,
        k: int,
        seat: int,
        play: int,
        fines: list[Number],
    ) -> None:
        """A revoke or a missed trump: an error, or a fine under ``revoke_penalty`` (§10.9)."""
        penalty = self.ruleset.revoke_penalty
        severity = None
        if penalty is not None:
            fines[seat] += penalty if penalty >= 0 else -penalty
            severity = Severity.PENALTY
        self._play_finding(code, message, deal, number, t, k, seat, play, severity)

    def _joker_winner(
        self, plays: list[int], decls: list[int], highs: list[int], led: int, trump: int
    ) -> int:
        """The winner of a trick with a joker in it (RULES §4, §5, §10.3).

        ``highs`` are the places of the plays declared ``high`` or ``lead_highest``, which
        ``_joker_trick`` notes as it reads the declarations.
        """
        if (
            highs
            and highs[0] == 0
            and decls[0] == LEAD_HIGHEST
            and self.ruleset.demand_to_highest_trump
            and 0 <= trump != led
            and any(
                not decls[k] and (plays[k] & CARD_BITS) // 13 == trump for k in range(1, len(plays))
            )
        ):
            highs = highs[1:]
        if highs:
            return highs[-1] if self.ruleset.later_joker_wins else highs[0]
        best = _best_card(plays, decls, led, trump)
        if best < 0 and led < 0:
            first = next((k for k, d in enumerate(decls) if not d), -1)
            if first >= 0:
                best = _best_card(plays, decls, (plays[first] & CARD_BITS) // 13, trump)
        return max(best, 0)

    def _check_leftovers(self, deal: Deal, number: int, singles: list[int]) -> None:
        offenders = {
            f.seat
            for f in self.findings
            if f.deal == number and f.code in (Code.PLAY_NOT_HELD, Code.DEAL_CARDS)
        }
        for seat, left in enumerate(singles):
            if left and seat not in offenders:
                names = [card_name(c) for c in range(64) if left >> c & 1]
                self.find(
                    Code.PLAY_HANDS,
                    f"never played {', '.join(names)}",
                    number,
                    seat=seat,
                    actual=names,
                    path=pointer("deals", deal.index, "hands", seat),
                )

    # -- claims and the report -----------------------------------------------------------------

    def _compare(
        self,
        claimed: list[Any] | None,
        computed: list[Any],
        code: Code,
        number: int | None,
        what: str,
        key: str,
        index: int | None,
    ) -> None:
        """One ``result.*`` finding per seat whose claim differs from the replay."""
        if claimed is None or claimed == computed:
            return
        for seat, (claim, value) in enumerate(zip(claimed, computed, strict=True)):
            if claim != value and exact(claim) != value:
                where = ("deals", index, key, seat) if index is not None else (key, seat)
                self.find(
                    code,
                    f"the {what} is {plain(value)}, not {claim}",
                    number,
                    seat=seat,
                    expected=plain(value),
                    actual=claim,
                    path=pointer(*where),
                )

    def report(self) -> Report:
        record = self.record
        if self.schedule is not None and len(record.deals) < len(self.schedule):
            self.findings.append(
                Finding(
                    Code.GAME_INCOMPLETE,
                    f"{len(record.deals)} of {len(self.schedule)} deals played",
                    expected=len(self.schedule),
                    actual=len(record.deals),
                )
            )
        self._compare(
            record.totals, self.running, Code.RESULT_TOTAL, None, "final total", "totals", None
        )
        best = max(self.running)
        winners = [seat for seat, total in enumerate(self.running) if total == best]
        audits = {r.audit for r in self.results}
        audit = audits.pop() if len(audits) == 1 else ("mixed" if audits else "full")
        return Report(
            verdict_of(self.findings),
            audit,
            self.ruleset,
            self.findings,
            self.results,
            self.running,
            winners,
            self.players,
        )


_BITS = [1 << card for card in range(64)]
#: The suit of each card code, ``card // 13``: a list index is cheaper than a division.
_SUITS = [card // 13 for card in range(64)]
_EVERY_CARD = sum(_BITS)  #: a mask of every card code, for ``_masks_from_plays``
_HIGHS = frozenset({HIGH, LEAD_HIGHEST})  #: the declarations that take a trick


@dataclass(frozen=True, slots=True)
class _Table:
    """What the replay derives from a ruleset for a number of players (see ``_table``)."""

    deck: str
    deck_bits: int
    copies: int
    deck_size: int
    schedule: tuple[tuple[int, str], ...] | None
    #: Holding a joker never obliges (RULES §4): the suit masks that oblige leave jokers out.
    obliging: tuple[int, ...]
    #: The trumps that oblige a seat void in the led suit: none without ``must_trump``, so
    #: that a discard by a seat holding a trump costs the trick loops no call.
    trump_obliging: tuple[int, ...]
    #: The play codes of face cards that are not jokers, the only ones ``_run`` replays
    #: itself; the printed jokers of a deck without them go the general way as well. Empty
    #: for the 104-card deck, whose twins (``doubles``) only ``_joker_trick`` handles.
    plain_codes: frozenset[int]
    #: The seat of each play of a trick, by its leader: ``turns[leader][k]``.
    turns: tuple[tuple[int, ...], ...]
    #: Joker plays as read by ``_read_declaration``, by (code, leads, first trick, trump).
    readings: dict[tuple[int, bool, bool, int], tuple[int, int, str]]
    #: Running totals are kept as ints scaled by a common denominator: adding fractions
    #: (3/2 multipliers) deal after deal is the slowest arithmetic of the replay.
    scale: int
    #: With a power-of-two denominator (3/2 multipliers) every score is an exact binary
    #: float, which compares with the claims at C speed; otherwise scores stay fractions.
    binary: bool
    #: The ruleset's joker cards, counted in each dealt hand (``DealResult.jokers_held``).
    jokers: tuple[int, ...]


def _table(ruleset: Ruleset, players: int) -> _Table:
    """The ruleset's table for this many players, made once per ruleset and player count:
    a preset is one shared ``Ruleset``, so every record played under it reuses the table."""
    table: _Table | None = ruleset.tables.get(players)
    if table is None:
        deck = ruleset.deck_for(players)
        deck_bits = deck_mask(deck)
        copies = 2 if deck == "104" else 1
        schedule = schedule_for(ruleset, players)
        scale = _common_denominator(ruleset) ** 3
        # A fifth, empty "suit" for printed jokers (X1, X2 // 13 == 4) that are not jokers
        # of this ruleset: such a card is found as unknown, and obliges nobody.
        obliging = (*(mask & ~ruleset.joker_mask for mask in SUIT_MASKS), 0)
        table = ruleset.tables[players] = _Table(
            deck,
            deck_bits,
            copies,
            deck_bits.bit_count() * copies,
            None if schedule is None else tuple(schedule),
            obliging,
            obliging if ruleset.must_trump else (0,) * len(obliging),
            frozenset(
                card for card in range(X1) if copies == 1 and not ruleset.joker_mask >> card & 1
            ),
            tuple(tuple((lead + k) % players for k in range(players)) for lead in range(players)),
            {},
            scale,
            scale & (scale - 1) == 0,
            tuple(card for card in range(64) if ruleset.joker_mask >> card & 1),
        )
    return table


_JOKER_PLAYS: dict[tuple[int, int, type, bool], JokerPlay] = {}


def _joker_play(seat: int, declaration: int, won: bool) -> JokerPlay:
    """A joker play of the report, shared: it is immutable, and the few there can be recur in
    every game (making a frozen dataclass costs more than looking it up)."""
    key = (seat, declaration, type(declaration), won)  # the type: an int or a Declaration
    play = _JOKER_PLAYS.get(key)
    if play is None:
        play = _JOKER_PLAYS[key] = JokerPlay(seat, declaration, won)
    return play


def _common_denominator(ruleset: Ruleset) -> int:
    """The least common denominator of a ruleset's numbers; a score is a product of at
    most three of them (base × kind multiplier × blind multiplier), hence the cube."""
    numbers = [getattr(ruleset, name) for name in ruleset.__slots__]
    numbers += list(ruleset.kind_multipliers.values())
    return math.lcm(*(n.denominator for n in numbers if isinstance(n, Fraction)), 1)


def _best_card(plays: list[int], decls: list[int], led: int, trump: int) -> int:
    """Like ``_plain_winner`` over the face cards only; -1 if none is of led suit or trump."""
    best = -1
    best_card = -1
    best_trump = False
    for k, code in enumerate(plays):
        if decls[k]:
            continue
        card = code & CARD_BITS
        suit = card // 13
        if suit == trump:
            if not best_trump or card > best_card:
                best, best_card, best_trump = k, card, True
        elif not best_trump and suit == led and card > best_card:
            best, best_card = k, card
    return best


def _count(number: int, noun: str) -> str:
    """``1 card``, ``2 cards``: messages are sentences a player reads."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _suit(suit: int) -> str:
    return "no trump" if suit < 0 else ("spades", "clubs", "diamonds", "hearts")[suit]


def _suit_code(suit: int) -> str | None:
    return None if suit < 0 else "SCDH"[suit]
