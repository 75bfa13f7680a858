"""Simulated games: complete random legal games of every preset (RULES §8), optionally with
exactly one defect, for property tests, benchmarks and examples.

The simulator is an independent oracle for the verifier: it decides on its own which plays
are legal (RULES §4, §5, §10.1–10.4), who wins each trick and which bids are allowed
(RULES §3, §10.7, §10.8, §10.10), sharing with the replay only the ruleset tables and the
scoring functions (``scoring.deal_score``). A game it calls legal that the verifier rejects
is a bug in one of the two.

The players are small bots (OpenSpiel's random playouts, with a little sense): a bid is the
hand's expected tricks, the sum over its cards of a win chance by rank and trump-ness scaled
so that the expected bids of a deal add up to its cards; in play a bot under its bid tries to
take the trick as cheaply as it can and a bot at or over its bid ducks, always among the
legal plays only.

Free schedules (RULES §8): podkidnoy plays its suggested schedule, ``1 … 9`` regular then one
each of ``dark``, ``no_trump``, ``golden``, ``misere`` with 9 cards (never more than the deck
allows); oh_hell plays ``M`` down to 1 and back up to ``M``.

Decisions where RULES leaves room, taken as the replay takes them:

- ``lead_highest_suits: suit`` names a suit other than the deal's trump (the replay also
  accepts the trump suit by letter); ``trump`` is written ``*``, or as the trump's letter.
- A joker played ``plain`` is never used to answer a ``lead_highest`` demand (whether the
  face card of a joker is "the highest" of its suit is not settled by RULES §5).
- A ``lead_lowest`` joker is not ``high`` for ``later_joker_wins`` (RULES §10.3 speaks of the
  demanding joker; the replay counts only ``lead_highest``, the demand that takes).

Corruptions (``CORRUPTIONS``) inject exactly one defect at a random, deterministic place and
say where in ``meta["corruption"]``. Defects in the play are made *while* playing: the
offending seat plays the bad card and the deal goes on legally from the resulting hands (the
replay also applies an illegal play as recorded and goes on), so hands, later plays and every
claim stay consistent and the defect is the record's only error. A defect in the bidding
(hook, three passes, blind pass) is likewise a bid the bots then play to.

- ``revoke``: a seat holding the led suit plays a card of another suit (never a joker). Under
  ``revoke_penalty`` (georgian) the finding is a ``penalty`` and the claimed score carries
  the fine. (A swap with a later card of the same seat would change who wins the trick, and
  with it who leads next and which seat every later play belongs to.)
- ``must_trump``: a seat void in the led suit that holds a trump plays a third suit.
- ``card_played_twice``: a seat plays again a card it played earlier in the deal. The card it
  did not play stays in its hand and is played later; the replay does not report the
  offender's leftover card (``play.hands``), so ``play.not_held`` is the only finding.
- ``joker_demand``: the leader leads a joker ``lead_highest`` naming a suit of which a later
  seat holds two ranks, and that seat plays a lower one.
- ``hook``: the last bidder bids what makes the sum equal ``cards`` (never a banned pass).
- ``three_passes``: from a chosen deal on, one seat passes whenever it may; when two passes
  forbid the third, it passes anyway (never where that pass would also break the hook).
- ``dark_pass``: a seat that is not the hooked last bidder bids ``{"bid": 0, "dark": true}``.
- ``duplicate_card``: a seat gets another copy of a card that seats before it hold, in place
  of one of its own cards (not the trump card); the replay counts copies in seat order.
- ``wrong_schedule``: one deal is dealt with other ``cards`` than the schedule's (a free
  schedule: a kind outside ``kinds_allowed``) and played out legally so.
- ``wrong_score``, ``wrong_total``, ``wrong_dealer``: one claim of the finished record is
  changed; running totals and totals stay as computed from the true scores.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from .scores import Number, exact, plain
from .tricks.rulesets import DealKind, Ruleset, max_hand, resolve_ruleset, schedule_for
from .tricks.scoring import deal_score

CORRUPTIONS: Final = (
    "revoke",
    "must_trump",
    "card_played_twice",
    "hook",
    "three_passes",
    "dark_pass",
    "wrong_score",
    "wrong_total",
    "wrong_dealer",
    "duplicate_card",
    "joker_demand",
    "wrong_schedule",
)
"""The defects ``simulate_game(corrupt=…)`` can inject, one per record."""

CORRUPTION_CODES: Final = {
    "revoke": "play.revoke",
    "must_trump": "play.must_trump",
    "card_played_twice": "play.not_held",
    "hook": "bid.hook",
    "three_passes": "bid.three_passes",
    "dark_pass": "bid.dark",
    "wrong_score": "result.score",
    "wrong_total": "result.total",
    "wrong_dealer": "deal.dealer",
    "duplicate_card": "deal.duplicate_card",
    "joker_demand": "play.joker_demand",
    "wrong_schedule": "deal.schedule",
}
"""The finding code (FORMAT.md) each corruption must produce, and nothing else of error level.

Under a ruleset with ``revoke_penalty`` (georgian) the ``play.revoke`` and ``play.must_trump``
findings are of severity ``penalty`` and the fine is in the claimed scores: the record stays
``verified``.
"""

NAMES: Final = ("Anna", "Boris", "Vera", "Gleb", "Daria", "Egor", "Zhenya", "Ivan", "Kira", "Lev")

_PLAY_MODES: Final = ("revoke", "must_trump", "card_played_twice", "joker_demand")
_SEARCHED_MODES: Final = (*_PLAY_MODES, "hook")
_NEEDS_HANDS: Final = (*_PLAY_MODES, "duplicate_card")
_ATTEMPTS: Final = 8
#: The special deals of a free schedule, in the order played (the module docstring).
_FREE_SPECIALS: Final = (DealKind.DARK, DealKind.NO_TRUMP, DealKind.GOLDEN, DealKind.MISERE)

_SUITS: Final = "SCDH"
_RANKS: Final = "23456789TJQKA"
_X1: Final = 52
_X2: Final = 53
_STAR: Final = 4  #: a lead demand naming "trumps" (``*``)
_LEADS: Final = ("lead_highest", "lead_lowest")
_HIGHS: Final = ("high", "lead_highest")

Json = dict[str, Any]


# -- cards ----------------------------------------------------------------------------------


def _name(card: int) -> str:
    if card >= _X1:
        return f"X{card - _X1 + 1}"
    return _RANKS[card % 13] + _SUITS[card // 13]


def _card(name: str) -> int:
    if name in ("X1", "X2"):
        return _X1 if name == "X1" else _X2
    return _SUITS.index(name[1]) * 13 + _RANKS.index(name[0])


def _suit(card: int) -> int:
    return card // 13 if card < _X1 else -1


def _rank(card: int) -> int:
    return card % 13 if card < _X1 else -1


def _deck(size: str) -> list[int]:
    """The cards of a deck, RULES §1: 36 (6 … A), 52, 54 (with X1, X2), 104 (52 twice)."""
    if size == "36":
        return [s * 13 + r for s in range(4) for r in range(4, 13)]
    full = list(range(52))
    if size == "54":
        return [*full, _X1, _X2]
    if size == "104":
        return full + full
    return full


@dataclass(frozen=True, slots=True)
class _Play:
    """One play: a card and, for a joker, how it is played (``""`` for a face card)."""

    card: int
    decl: str = ""  #: "", high, low, plain, lead_highest, lead_lowest
    named: int = -1  #: a lead demand's suit 0…3, or ``_STAR`` for "trumps"

    @property
    def face(self) -> bool:
        """Whether the play counts as its face card (an ordinary card, or a joker ``plain``)."""
        return self.decl in ("", "plain")


# -- corruption plans -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Spot:
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
class _Plan:
    """What to corrupt: ``recording`` collects spots; otherwise ``target`` is injected."""

    mode: str | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    recording: bool = False
    spots: list[_Spot] = field(default_factory=list)
    target: _Spot | None = None
    deal: int = -1  #: for modes injected at a chosen deal (or the first possible after it)
    seat: int = -1  #: three_passes: the seat that keeps passing
    done: bool = False
    location: dict[str, Any] | None = None
    pending: tuple[int, int, int] | None = None  #: joker_demand: (trick, seat, card) to play

    def found(self, deal: int, trick: int = -1, play: int = -1, seat: int = -1) -> None:
        def opt(value: int) -> int | None:
            return None if value < 0 else value + 1

        self.done = True
        self.location = {
            "mode": self.mode,
            "code": CORRUPTION_CODES[self.mode or ""],
            "deal": opt(deal),
            "trick": opt(trick),
            "play": opt(play),
            "seat": None if seat < 0 else seat,
        }


# -- one deal -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Deal:
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


class _Game:
    """One simulated game: deals, bids, plays, scores; a plan may corrupt one thing."""

    def __init__(
        self, ruleset: Ruleset, value: Any, players: int, seed: int, names: list[str], plan: _Plan
    ) -> None:
        self.r = ruleset
        self.value = value
        self.n = players
        self.seed = seed
        self.names = names
        self.plan = plan
        self.rng = random.Random(seed)
        self.deck_name = ruleset.deck_for(players)
        self.deck = _deck(self.deck_name)
        self.jokers = frozenset(_card(c) for c in ruleset.options["jokers"])
        self.declarations = tuple(ruleset.options["declarations"])
        self.m = max_hand(ruleset, players)
        self.schedule = self._schedule()
        self.pass_runs = [0] * players
        self.trump = -1  #: the current deal's trump
        self.rotating = ruleset.trump == "rotating"

    # -- the game --------------------------------------------------------------------------

    def _schedule(self) -> list[tuple[int, DealKind]]:
        fixed = schedule_for(self.r, self.n)
        if fixed is not None:
            schedule = fixed
        else:
            allowed = self.r.kinds_allowed
            if self.r.preset == "oh_hell":
                sizes = [*range(self.m, 0, -1), *range(2, self.m + 1)]
                schedule = [(c, DealKind.REGULAR) for c in sizes]
            else:
                top = min(9, self.m)
                schedule = [(c, DealKind.REGULAR) for c in range(1, top + 1)]
                schedule += [(top, kind) for kind in _FREE_SPECIALS]
            schedule = [(c, k) for c, k in schedule if k in allowed]
            if not schedule:
                kind = next(k for k in DealKind if k in allowed)
                schedule = [(c, kind) for c in range(1, self.m + 1)]
        for cards, _ in schedule:
            if cards * self.n > len(self.deck):
                raise ValueError(
                    f"the schedule deals {cards} cards to {self.n} players, more than the deck"
                )
        return schedule

    def run(self) -> Json:
        rng = self.rng
        n = self.n
        first_dealer = rng.randrange(n)
        when = datetime(2020, 1, 1, 18, 0, tzinfo=UTC) + timedelta(
            days=rng.randrange(2000), minutes=rng.randrange(0, 300, 5)
        )
        running: list[Number] = [0] * n
        deals: list[Json] = []
        for index, (cards, kind) in enumerate(self.schedule):
            cards, kind = self._scheduled(index, cards, kind)
            deal = self._play_deal(index, cards, kind, (first_dealer + index) % n)
            running = [a + b for a, b in zip(running, deal.scores, strict=True)]
            deals.append(self._write_deal(deal, running))
        record: Json = {
            "format": "raspis/1",
            "ruleset": copy.deepcopy(self.value),
            "players": list(self.names),
            "first_dealer": first_dealer,
            "meta": {
                "played_at": when.isoformat(),
                "source": "simulator",
                "external_id": f"sim-{self.r.preset}-{n}-{self.seed}",
            },
            "deals": deals,
            "totals": [plain(t) for t in running],
        }
        return record

    def _scheduled(self, index: int, cards: int, kind: DealKind) -> tuple[int, DealKind]:
        """The deal as played: the schedule's, unless ``wrong_schedule`` picks it to differ."""
        plan = self.plan
        if plan.mode != "wrong_schedule" or plan.done or index < plan.deal:
            return cards, kind
        if schedule_for(self.r, self.n) is None:
            banned = [k for k in DealKind if k not in self.r.kinds_allowed]
            kind = plan.rng.choice(banned)
        else:
            cards = plan.rng.choice([c for c in range(1, self.m + 1) if c != cards])
        plan.found(index)
        return cards, kind

    def _write_deal(self, deal: _Deal, running: list[Number]) -> Json:
        rng = self.rng
        regular = deal.kind is DealKind.REGULAR
        out: Json = {"kind": deal.kind.value} if not regular or rng.random() < 0.5 else {}
        out.update(dealer=deal.dealer, cards=deal.cards)
        # Now and then the hands are left out: they are then the cards each seat plays.
        if rng.random() >= 0.1 or self.plan.mode in _NEEDS_HANDS:
            out["hands"] = [[_name(c) for c in sorted(h, key=_sort_key)] for h in deal.hands]
        if deal.trump_card is not None:
            out["trump_card"] = _name(deal.trump_card)
        # Bidding deals name the declarer's trump; golden and misère may state the card's.
        stated = deal.declarer is not None or deal.kind == "no_trump" or rng.random() < 0.5
        if self.r.trump == "declared" and stated:
            out["trump"] = None if deal.trump < 0 else _SUITS[deal.trump]
        if deal.declarer is not None:
            out["declarer"] = deal.declarer
            out["calls"] = deal.calls
        if deal.bids is not None:
            out["bids"] = deal.written_bids
        out["tricks"] = deal.tricks
        out["taken"] = deal.taken
        out["scores"] = [plain(s) for s in deal.scores]
        out["running"] = [plain(s) for s in running]
        return out

    # -- dealing ---------------------------------------------------------------------------

    def _play_deal(self, index: int, cards: int, kind: DealKind, dealer: int) -> _Deal:
        r = self.r
        rng = self.rng
        n = self.n
        deck = list(self.deck)
        rng.shuffle(deck)
        drawn = deck[rng.randrange(len(deck))]  # trump_card_source "any": drawn before the deal
        hands: list[list[int]] = [[] for _ in range(n)]
        for j in range(cards * n):
            hands[(dealer + 1 + j) % n].append(deck[j])
        dealt_all = cards * n >= len(deck)
        last = deck[cards * n - 1]  # the dealer's last card
        deal = _Deal(index, cards, kind, dealer, hands)
        from_card = r.trump in ("card", "declared") and kind != "no_trump"
        if from_card:
            source = r.trump_card_source if r.trump == "card" else "dealer_last"
            if source == "any":
                deal.trump_card = drawn
            elif source == "stock" and not dealt_all:
                deal.trump_card = deck[cards * n]
            else:
                deal.trump_card = last
        self._duplicate(deal)
        if kind == "no_trump" or self.rotating:
            self.trump = -1
        elif r.trump == "fixed":
            self.trump = r.fixed_trump
        else:
            self.trump = self._card_trump(deal.trump_card)
        if r.bids_in(kind):
            if r.auction:
                self._auction(deal)
            else:
                self._bids(deal)
        else:
            deal.blind = [False] * n
        deal.trump = self.trump
        fines: list[Number] = [0] * n
        self._tricks(deal, fines)
        for seat in range(n):
            bid = None if deal.bids is None else deal.bids[seat]
            score = deal_score(r, kind, cards, bid, deal.blind[seat], deal.taken[seat])
            deal.scores.append(score - fines[seat])
        return deal

    def _card_trump(self, card: int | None) -> int:
        if card is None or card in self.jokers or card >= _X1:
            return -1
        return _suit(card)

    def _duplicate(self, deal: _Deal) -> None:
        """``duplicate_card``: seat s gets another copy of a card that seats before it hold.

        The replay counts copies in seat order, so the excess copy is found at seat s. No seat
        holds more copies than the deck has (two of a 36-card card in one hand would make its
        second play ``play.not_held`` as well), and the turned-up trump card stays put.
        """
        plan = self.plan
        if plan.mode != "duplicate_card" or plan.done or deal.index < plan.deal:
            return
        copies = 2 if self.deck_name == "104" else 1
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

    # -- bidding ---------------------------------------------------------------------------

    def _estimate(self, hand: list[int], cards: int, blind: bool) -> float:
        """Expected tricks: a win chance per card, scaled so a deal's bids add up to its cards."""
        if blind:
            return cards / self.n + self.rng.gauss(0, 0.5)
        mean = sum(self._chance(c) for c in self.deck) / len(self.deck)
        raw = sum(self._chance(c) for c in hand)
        return raw / (self.n * mean) + self.rng.gauss(0, 0.35)

    def _chance(self, card: int) -> float:
        if card in self.jokers or card >= _X1:
            return 0.95
        low = 4 if self.deck_name == "36" else 0
        q = (_rank(card) - low) / (12 - low)
        if self.trump >= 0 and _suit(card) == self.trump:
            return 0.3 + 0.7 * q * q
        return q**4 * (0.85 if self.trump >= 0 else 1.0)

    def _bids(self, deal: _Deal) -> None:
        """Sequential bidding, RULES §3: the hook, three passes, optional blind bids."""
        r = self.r
        n = self.n
        rng = self.rng
        plan = self.plan
        cards = deal.cards
        first = deal.dealer if r.first_bidder_is_dealer else (deal.dealer + 1) % n
        order = [(first + i) % n for i in range(n)]
        bids = [0] * n
        blind = [deal.kind == "dark"] * n
        written: list[Any] = [0] * n
        dark_pass = -1
        if plan.mode == "dark_pass" and not plan.done and plan.deal <= deal.index:
            eligible = [
                s
                for s in (order[:-1] if r.hook else order)
                if deal.kind != "dark" and not (r.three_passes and self.pass_runs[s] >= 2)
            ]
            if eligible:
                dark_pass = plan.rng.choice(eligible)
        for i, seat in enumerate(order):
            last = i == n - 1
            before = sum(bids[s] for s in order[:i])
            banned = r.three_passes and self.pass_runs[seat] >= 2
            if seat == dark_pass:
                bids[seat], written[seat], blind[seat] = 0, {"bid": 0, "dark": True}, True
                plan.found(deal.index, seat=seat)
                continue
            if last and r.hook and plan.mode == "hook" and 0 <= cards - before <= cards:
                forced = cards - before
                if not (forced == 0 and banned):
                    spot = _Spot(deal.index, seat=seat, cards=(forced,))
                    if plan.recording:
                        plan.spots.append(spot)
                    elif plan.target == spot:
                        bids[seat] = written[seat] = forced
                        plan.found(deal.index, seat=seat)
                        continue
            if self._three_passes_policy(deal, seat, banned, last, before):
                bids[seat] = written[seat] = 0
                continue
            allowed = self._allowed(cards, banned, last, before)
            if not allowed:  # hook and three passes leave nothing: an earlier pass becomes 1
                passes = [s for s in order[:-1] if bids[s] == 0 and s != dark_pass]
                keep = (plan.seat, dark_pass)
                s = next((s for s in passes if s not in keep), passes[0])
                bids[s] = written[s] = 1
                before += 1
                allowed = self._allowed(cards, banned, last, before)
            if (
                r.dark_bids
                and deal.kind != "dark"
                and rng.random() < 0.07
                and not (plan.mode == "three_passes" and seat == plan.seat)
            ):
                guess = max(1, round(self._estimate([], cards, True)))
                if guess in allowed:
                    bids[seat], written[seat], blind[seat] = (
                        guess,
                        {"bid": guess, "dark": True},
                        True,
                    )
                    continue
            estimate = self._estimate(deal.hands[seat], cards, deal.kind in ("dark", "forehead"))
            bid = min(allowed, key=lambda b: (abs(b - estimate), rng.random()))
            bids[seat] = bid
            if deal.kind == "dark" and bid and rng.random() < 0.05:
                written[seat] = {"bid": bid, "dark": True}  # no extra multiplier, §10.7
            else:
                written[seat] = bid
        if r.three_passes:
            for seat in range(n):
                self.pass_runs[seat] = self.pass_runs[seat] + 1 if bids[seat] == 0 else 0
        deal.bids, deal.blind, deal.written_bids = bids, blind, written

    def _allowed(self, cards: int, banned: bool, last: bool, before: int) -> list[int]:
        allowed = list(range(1 if banned else 0, cards + 1))
        if last and self.r.hook and cards - before in allowed:
            allowed.remove(cards - before)
        return allowed

    def _three_passes_policy(
        self, deal: _Deal, seat: int, banned: bool, last: bool, before: int
    ) -> bool:
        """``three_passes``: from the plan's deal on, its seat passes whenever it may; once
        two passes make the third illegal, it passes anyway. True when the seat passes."""
        plan = self.plan
        if plan.mode != "three_passes" or plan.done or seat != plan.seat or deal.index < plan.deal:
            return False
        if last and self.r.hook and before == deal.cards:
            return False  # a pass would also break the hook
        if banned:
            plan.found(deal.index, seat=seat)
        return True

    def _auction(self, deal: _Deal) -> None:
        """The podkidnoy auction, RULES §10.10: rounds of calls from the dealer's left until one
        player alone holds the highest call; that declarer names the trump."""
        n = self.n
        rng = self.rng
        cards = deal.cards
        first = deal.dealer if self.r.first_bidder_is_dealer else (deal.dealer + 1) % n
        order = [(first + i) % n for i in range(n)]
        blind = deal.kind == "dark"
        last: dict[int, int] = {}
        calls: list[list[int]] = []
        for seat in order:
            estimate = self._estimate(deal.hands[seat], cards, blind)
            call = max(0, min(cards, round(estimate)))
            last[seat] = call
            calls.append([seat, call])
        top = max(last.values())
        tied = [s for s in order if last[s] == top]
        if len(tied) > 1:
            winner = rng.choice(tied)
            for seat in order:
                call = last[seat]
                if seat == winner and top < cards:
                    call = top + 1
                elif seat != winner and call == top and top == cards:
                    call = top - 1
                last[seat] = call
                calls.append([seat, call])
        declarer = max(last, key=lambda s: last[s])
        deal.bids = [last[s] for s in range(n)]
        deal.written_bids = list(deal.bids)
        deal.blind = [blind] * n
        deal.calls = calls
        deal.declarer = declarer
        if deal.kind == "no_trump":
            self.trump = -1
        elif blind or rng.random() < 0.1:
            self.trump = rng.choice([-1, 0, 1, 2, 3])
        else:
            hand = deal.hands[declarer]
            self.trump = max(
                range(4),
                key=lambda s: (
                    sum(1 + _rank(c) / 13 for c in hand if _suit(c) == s and c not in self.jokers),
                    rng.random(),
                ),
            )

    # -- play ------------------------------------------------------------------------------

    def _tricks(self, deal: _Deal, fines: list[Number]) -> None:
        r = self.r
        n = self.n
        hands = [list(h) for h in deal.hands]
        played: list[list[int]] = [[] for _ in range(n)]
        taken = [0] * n
        leader = deal.dealer if r.first_leader_is_dealer else (deal.dealer + 1) % n
        for t in range(deal.cards):
            plays: list[_Play] = []
            seat = leader
            for k in range(n):
                play = self._corrupt_play(deal, t, k, seat, plays, hands, played)
                if play is None:
                    options = self._options(hands[seat], plays, t)
                    play = self._choose(deal, seat, taken, options, plays)
                elif self.plan.mode in ("revoke", "must_trump") and r.revoke_penalty is not None:
                    penalty = r.revoke_penalty  # RULES §10.9: a fine instead of an error
                    fines[seat] += penalty if penalty >= 0 else -penalty
                if play.card in hands[seat]:
                    hands[seat].remove(play.card)
                played[seat].append(play.card)
                plays.append(play)
                seat = (seat + 1) % n
            winner = (leader + self._winner(plays)) % n
            taken[winner] += 1
            written = [self._write_play(p) for p in plays]
            if self.rng.random() < 0.1:
                deal.tricks.append({"leader": leader, "plays": written})
            else:
                deal.tricks.append(written)
            leader = winner
        deal.taken = taken

    def _context(self, plays: list[_Play]) -> tuple[int, int, bool]:
        """The led suit (-1: none), the trick's trump (-1: none), and whether a
        ``lead_highest`` demand is on (RULES §4, §5, §10.1, §10.4)."""
        if not plays:
            return -1, -1, False
        first = plays[0]
        if first.face:
            led = _suit(first.card)
        elif first.decl in _LEADS:
            led = self.trump if first.named == _STAR else first.named
        else:
            led = -1
        trump = self.trump
        if self.rotating:
            trump = (led + 1) % 4 if led >= 0 else -1
        return led, trump, first.decl == "lead_highest"

    def _options(self, hand: list[int], plays: list[_Play], t: int) -> list[_Play]:
        """Every legal play from ``hand`` into the trick so far (RULES §4, §5, §10)."""
        led, trump, demand = self._context(plays)
        leading = not plays
        first_only = self.r.joker_demand_first_trick_only
        options: list[_Play] = []
        for card in sorted(set(hand)):
            if card not in self.jokers:
                if leading or self._face_ok(card, hand, led, trump, demand):
                    options.append(_Play(card))
                continue
            for decl in self.declarations:
                if decl == "high" or (decl == "low" and not leading):
                    options.append(_Play(card, decl))
                elif decl == "plain" and card < _X1:
                    if leading or (not demand and self._face_ok(card, hand, led, trump, False)):
                        options.append(_Play(card, decl))
                elif decl in _LEADS and leading and (t == 0 or not first_only):
                    options.extend(_Play(card, decl, s) for s in self._nameable(decl))
            if not self.declarations and self.r.joker_silent_high:
                options.append(_Play(card, "high"))
        if not options:
            raise ValueError(f"{self.r.preset}: the ruleset leaves no legal play")
        return options

    def _face_ok(self, card: int, hand: list[int], led: int, trump: int, demand: bool) -> bool:
        if led < 0:
            return True
        suit = _suit(card)
        if self._holds(hand, led):
            if suit != led:
                return False
            top = max(_rank(c) for c in hand if _suit(c) == led and c not in self.jokers)
            return not demand or _rank(card) >= top
        if self.r.must_trump and 0 <= trump != led and self._holds(hand, trump):
            return suit == trump
        return True

    def _holds(self, hand: list[int], suit: int) -> bool:
        """Whether the hand holds a card of the suit; a joker never counts (RULES §10.2)."""
        return any(_suit(c) == suit and c not in self.jokers for c in hand)

    def _nameable(self, decl: str) -> list[int]:
        """The suits a lead demand may name: RULES §5, ``lead_highest_suits``."""
        star = [_STAR] if self.trump >= 0 and not self.rotating else []
        if decl == "lead_lowest":
            return [0, 1, 2, 3]
        mode = self.r.lead_highest_suits
        if mode == "trump":
            return star
        if mode == "suit":
            return [s for s in range(4) if s != self.trump]
        return [0, 1, 2, 3, *star]

    def _winner(self, plays: list[_Play]) -> int:
        """The index of the play that takes the trick (RULES §4, §5, §10.3), so far."""
        led, trump, _ = self._context(plays)
        first = plays[0]
        highs = [k for k, p in enumerate(plays) if p.decl in _HIGHS]
        if (
            highs
            and highs[0] == 0
            and first.decl == "lead_highest"
            and self.r.demand_to_highest_trump
            and 0 <= trump != led
            and any(p.face and _suit(p.card) == trump for p in plays[1:])
        ):
            highs = highs[1:]
        if highs:
            return highs[-1] if self.r.later_joker_wins else highs[0]
        best, best_key = 0, (-1, -1)  # a lead_lowest joker that nobody beat keeps the trick
        for k, p in enumerate(plays):
            if not p.face:
                continue
            suit = _suit(p.card)
            if suit == trump:
                key = (2, _rank(p.card))
            elif suit == led:
                key = (1, _rank(p.card))
            else:
                continue
            if key > best_key:  # strictly: the first of two twins wins (RULES §1)
                best, best_key = k, key
        return best

    def _choose(
        self, deal: _Deal, seat: int, taken: list[int], options: list[_Play], plays: list[_Play]
    ) -> _Play:
        """A bot's play: take cheaply when it still needs tricks, else duck."""
        rng = self.rng
        if rng.random() < 0.08:
            return rng.choice(options)
        if deal.kind == "misere":
            want = False
        elif deal.bids is None:
            want = True  # golden, and two_jacks' no-trump deals: every trick counts
        else:
            want = taken[seat] < deal.bids[seat]
        k = len(plays)
        _, trump, _ = self._context(plays)
        rated: list[tuple[_Play, bool, int]] = [
            (p, self._winner([*plays, p]) == k, self._cost(p, trump)) for p in options
        ]
        if not plays:  # lead the strongest card to take (a joker now and then), else the weakest
            faces = [x for x in rated if x[0].face]
            pool = faces if want and faces and rng.random() < 0.6 else rated
            highest = want
        elif want:  # take as cheaply as possible (or safely, early in the trick), else dump
            winners = [x for x in rated if x[1]]
            pool = winners or rated
            highest = bool(winners) and k < self.n - 1 and rng.random() < 0.4
        else:  # dump the highest card that does not take (a joker first), else the cheapest
            losers: list[tuple[_Play, bool, int]]
            losers = [(p, w, 30 if p.decl == "plain" else c) for p, w, c in rated if not w]
            pool, highest = losers or rated, bool(losers)
        costs = [x[2] for x in pool]
        target = max(costs) if highest else min(costs)
        return rng.choice([x[0] for x in pool if x[2] == target])

    def _cost(self, play: _Play, trump: int) -> int:
        if play.decl in _HIGHS:
            return 40
        if play.decl == "lead_lowest":
            return 3
        if play.decl == "low":
            return 11
        card = play.card
        trumps = 0 <= _suit(card) in (trump, self.trump)
        return _rank(card) + (13 if trumps else 0)

    def _write_play(self, play: _Play) -> Any:
        rng = self.rng
        name = _name(play.card)
        if not play.decl:
            return name
        if play.decl == "high" and (
            not self.declarations or (self.r.joker_silent_high and rng.random() < 0.3)
        ):
            return name
        if rng.random() < 0.2:
            obj: Json = {"card": name, "joker": play.decl}
            if play.decl in _LEADS:
                obj["suit"] = "trump" if play.named == _STAR else _SUITS[play.named]
            return obj
        if play.decl in _LEADS:
            suit = "*" if play.named == _STAR else _SUITS[play.named]
            return name + ("+" if play.decl == "lead_highest" else "-") + suit
        return name + {"high": "+", "low": "-", "plain": "="}[play.decl]

    # -- play corruptions ------------------------------------------------------------------

    def _corrupt_play(
        self,
        deal: _Deal,
        t: int,
        k: int,
        seat: int,
        plays: list[_Play],
        hands: list[list[int]],
        played: list[list[int]],
    ) -> _Play | None:
        """The bad play of a play corruption here, or None; in a clean run, notes the spots."""
        plan = self.plan
        mode = plan.mode
        if mode not in _PLAY_MODES or plan.done:
            return None
        if plan.pending is not None:  # joker_demand: the answer below the highest
            trick, who, card = plan.pending
            if (trick, who) != (t, seat):
                return None
            plan.pending = None
            plan.found(deal.index, t, k, seat)
            return _Play(card)
        if plan.recording:
            plan.spots.extend(self._spots(deal, t, k, seat, plays, hands, played[seat]))
            return None
        target = plan.target
        if mode == "joker_demand":
            if target is None or (target.deal, target.trick, k) != (deal.index, t, 0):
                return None
            plan.pending = (t, target.follower, plan.rng.choice(target.cards))
            return _Play(target.joker, "lead_highest", target.named)
        if target is None or (target.deal, target.trick, target.play) != (deal.index, t, k):
            return None
        plan.found(deal.index, t, k, seat)
        return _Play(plan.rng.choice(target.cards))

    def _spots(
        self,
        deal: _Deal,
        t: int,
        k: int,
        seat: int,
        plays: list[_Play],
        hands: list[list[int]],
        played: list[int],
    ) -> list[_Spot]:
        mode = self.plan.mode
        index = deal.index
        hand = hands[seat]
        face = [c for c in hand if c not in self.jokers]
        if mode == "card_played_twice":
            again = sorted({c for c in played if c not in self.jokers and c not in hand})
            return [_Spot(index, t, k, seat, tuple(again))] if again else []
        if mode == "joker_demand":
            return self._demand_spots(index, t, seat, hands) if k == 0 else []
        led, trump, _ = self._context(plays)
        if k == 0 or led < 0:
            return []
        if mode == "revoke":
            if not any(_suit(c) == led for c in face):
                return []
            others = sorted({c for c in face if _suit(c) != led})
            return [_Spot(index, t, k, seat, tuple(others))] if others else []
        if not self.r.must_trump or not 0 <= trump != led:  # must_trump
            return []
        if any(_suit(c) == led for c in face) or not any(_suit(c) == trump for c in face):
            return []
        others = sorted({c for c in face if _suit(c) != trump})
        return [_Spot(index, t, k, seat, tuple(others))] if others else []

    def _demand_spots(self, index: int, t: int, leader: int, hands: list[list[int]]) -> list[_Spot]:
        """joker_demand: the leader may demand a suit of which a follower holds two ranks."""
        if "lead_highest" not in self.declarations:
            return []
        if self.r.joker_demand_first_trick_only and t > 0:
            return []
        jokers = sorted({c for c in hands[leader] if c in self.jokers})
        spots = []
        for named in self._nameable("lead_highest") if jokers else []:
            suit = self.trump if named == _STAR else named
            for k in range(1, self.n):
                follower = (leader + k) % self.n
                held = [c for c in hands[follower] if c not in self.jokers and _suit(c) == suit]
                top = max((_rank(c) for c in held), default=-1)
                lower = tuple(sorted({c for c in held if _rank(c) < top}))
                if lower:
                    for joker in jokers:
                        spots.append(
                            _Spot(index, t, k, follower, lower, joker, named, follower=follower)
                        )
        return spots


# -- mutations of the finished record ---------------------------------------------------------


def _mutate(record: Json, plan: _Plan, players: int) -> None:
    """The corruptions of the score sheet: one claimed score, total or dealer is wrong."""
    rng = plan.rng
    deals = record["deals"]
    if plan.mode == "wrong_score":
        index = rng.randrange(len(deals))
        seat = rng.randrange(players)
        scores = deals[index]["scores"]
        scores[seat] = plain(exact(scores[seat]) + rng.choice([-10, -5, -1, 1, 5, 10]))
        plan.found(index, seat=seat)
    elif plan.mode == "wrong_total":
        seat = rng.randrange(players)
        totals = record["totals"]
        totals[seat] = plain(exact(totals[seat]) + rng.choice([-10, -5, -1, 1, 5, 10]))
        plan.found(-1, seat=seat)
    elif plan.mode == "wrong_dealer":
        index = rng.randrange(len(deals))
        deal = deals[index]
        deal["dealer"] = (deal["dealer"] + rng.randrange(1, players)) % players
        plan.found(index)


def _sort_key(card: int) -> tuple[int, int]:
    return (_suit(card), _rank(card)) if card < _X1 else (4, card)


# -- the API ----------------------------------------------------------------------------------


def simulate_game(
    ruleset: str | dict[str, Any],
    players: int,
    seed: int,
    *,
    corrupt: str | None = None,
    sheet: bool = False,
    names: list[str] | None = None,
) -> dict[str, Any]:
    """One complete random legal game as a ``raspis/1`` record (FORMAT.md), deterministic in
    its arguments; with ``corrupt`` one of ``CORRUPTIONS``, exactly one defect of that kind,
    located in ``record["meta"]["corruption"]`` (1-based deal/trick/play, 0-based seat, None
    where not applicable). ``sheet`` drops ``tricks`` and ``hands``: a score-sheet record.

    Raises ValueError for arguments that cannot make such a game: an unknown ruleset, a
    player count outside its range, bad names, or a corruption the ruleset cannot have.
    """
    resolved, findings = resolve_ruleset(ruleset)
    if resolved is None:
        raise ValueError("; ".join(f.message for f in findings) or "bad ruleset")
    if not resolved.min_players <= players <= resolved.max_players:
        raise ValueError(
            f"{resolved.preset} is played by {resolved.min_players} to "
            f"{resolved.max_players} players, not {players}"
        )
    if names is None:
        names = [NAMES[s] if s < len(NAMES) else f"Player {s + 1}" for s in range(players)]
    if len(names) != players or len({n.strip().casefold() for n in names}) != players:
        raise ValueError(f"names must be {players} different names")
    if corrupt is not None:
        _check_applicable(resolved, corrupt, sheet)
    for attempt in range(_ATTEMPTS):
        game_seed = seed if attempt == 0 else _derived(seed, -attempt)
        record = _attempt(resolved, ruleset, players, game_seed, names, corrupt)
        if record is not None:
            break
    else:
        raise ValueError(f"found no place for {corrupt} in {_ATTEMPTS} games")
    if sheet:
        for deal in record["deals"]:
            deal.pop("tricks")
            deal.pop("hands", None)
    return record


def _attempt(
    ruleset: Ruleset,
    value: Any,
    players: int,
    seed: int,
    names: list[str],
    corrupt: str | None,
) -> Json | None:
    """One game, corrupted as asked; None when this game has no place for the corruption."""
    crng = random.Random(f"raspis-corrupt/{seed}")
    plan = _Plan(corrupt, crng)
    if corrupt in _SEARCHED_MODES:
        plan.recording = True
        _Game(ruleset, value, players, seed, names, plan).run()
        if not plan.spots:
            return None
        plan = _Plan(corrupt, crng, target=crng.choice(plan.spots))
    elif corrupt in ("three_passes", "dark_pass", "duplicate_card", "wrong_schedule"):
        schedule = _Game(ruleset, value, players, seed, names, plan).schedule
        places = list(range(len(schedule)))
        if corrupt == "three_passes":  # early enough for two passes and a third
            places = [i for i in places if ruleset.bids_in(schedule[i][1])]
            places = places[: max(1, len(places) // 2)]
        elif corrupt == "dark_pass":
            places = [i for i, (_, k) in enumerate(schedule) if ruleset.bids_in(k) and k != "dark"]
        if not places:
            return None
        plan.deal = crng.choice(places)
        if corrupt == "three_passes":
            plan.seat = crng.randrange(players)
    record = _Game(ruleset, value, players, seed, names, plan).run()
    if corrupt in ("wrong_score", "wrong_total", "wrong_dealer"):
        _mutate(record, plan, players)
    if corrupt is None:
        return record
    if not plan.done:
        return None
    record["meta"]["corruption"] = plan.location
    return record


def _check_applicable(ruleset: Ruleset, corrupt: str, sheet: bool) -> None:
    if corrupt not in CORRUPTIONS:
        raise ValueError(f"unknown corruption {corrupt!r}; known: {', '.join(CORRUPTIONS)}")
    name = ruleset.preset
    why = ""
    if sheet and corrupt in _NEEDS_HANDS:
        why = "a sheet record has no plays or hands"
    elif corrupt == "must_trump" and not ruleset.must_trump:
        why = "must_trump is off"
    elif corrupt in ("hook", "three_passes", "dark_pass") and ruleset.auction:
        why = "bids come from an auction"
    elif corrupt == "hook" and not ruleset.hook:
        why = "the hook (last_bidder_restriction) is off"
    elif corrupt == "three_passes" and not ruleset.three_passes:
        why = "three_passes_rule is off"
    elif corrupt == "dark_pass" and not ruleset.dark_bids:
        why = "dark_bids is off"
    elif corrupt == "joker_demand" and (
        not ruleset.options["jokers"]
        or "lead_highest" not in ruleset.options["declarations"]
        or (ruleset.trump == "rotating" and ruleset.lead_highest_suits == "trump")
    ):
        why = "no joker can demand a suit"
    elif corrupt == "wrong_schedule" and (
        isinstance(ruleset.schedule, str)
        and ruleset.schedule == "free"
        and ruleset.kinds_allowed >= frozenset(DealKind)
    ):
        why = "a free schedule allows every deal"
    if why:
        raise ValueError(f"cannot corrupt {name} with {corrupt}: {why}")


def _derived(seed: int, i: int) -> int:
    digest = hashlib.sha256(f"raspis-sim/{seed}/{i}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def simulate_games(
    ruleset: str | dict[str, Any],
    players: int,
    games: int,
    seed: int,
    corrupt: str | None = None,
    sheet: bool = False,
) -> Iterator[dict[str, Any]]:
    """``games`` records; game ``i`` is ``simulate_game`` with a seed derived from ``seed``
    and ``i``."""
    for i in range(games):
        yield simulate_game(ruleset, players, _derived(seed, i), corrupt=corrupt, sheet=sheet)


__all__ = ["CORRUPTIONS", "CORRUPTION_CODES", "simulate_game", "simulate_games"]
