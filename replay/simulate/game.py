"""A simulated game: the schedule, the deal, the bids and the tricks, played by the bots
(``bots``) within the oracle's rules (``oracle``), corrupted by a plan (``corruptions``)
and written as a record (``writer``); and the API of the package.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ..scores import Number, plain
from ..tricks.rulesets import (
    DealKind,
    Ruleset,
    TrumpCardSource,
    TrumpMode,
    max_hand,
    resolve_ruleset,
    schedule_for,
)
from ..tricks.scoring import deal_score
from ..tricks.teams import team_view
from .bots import Bots
from .corruptions import (
    SEARCHED_MODES,
    Corrupter,
    Corruption,
    Plan,
    Spot,
    check_applicable,
    mutate,
)
from .oracle import Call, Deal, Json, Play, card_of, deck_of, rank_of, suit_of
from .writer import Writer

NAMES: Final = ("Anna", "Boris", "Vera", "Gleb", "Daria", "Egor", "Zhenya", "Ivan", "Kira", "Lev")

_ATTEMPTS: Final = 8
#: The corruptions injected at a deal chosen before the game (or the first possible after).
_AT_A_DEAL: Final = (
    Corruption.THREE_PASSES,
    Corruption.DARK_PASS,
    Corruption.DUPLICATE_CARD,
    Corruption.WRONG_SCHEDULE,
)
#: The special deals of a free schedule, in the order played (the module docstring).
_FREE_SPECIALS: Final = (DealKind.DARK, DealKind.NO_TRUMP, DealKind.GOLDEN, DealKind.MISERE)


class Game(Bots, Corrupter, Writer):
    """One simulated game: deals, bids, plays, scores; a plan may corrupt one thing."""

    def __init__(
        self,
        ruleset: Ruleset,
        value: Any,
        players: int,
        seed: int,
        names: list[str],
        plan: Plan,
        claims: bool = False,
    ) -> None:
        self.r = ruleset
        self.claims = claims
        self.value = value
        self.n = players
        self.seed = seed
        self.names = names
        self.plan = plan
        self.rng = random.Random(seed)
        self.deck_name = ruleset.deck_for(players)
        self.deck = deck_of(self.deck_name)
        self.jokers = frozenset(card_of(c) for c in ruleset.options["jokers"])
        self.declarations = tuple(map(Call, ruleset.options["declarations"]))
        self.m = max_hand(ruleset, players)
        self.schedule = self._schedule()
        self.pass_runs = [0] * players
        self.trump = -1  #: the current deal's trump
        self.rotating = ruleset.trump is TrumpMode.ROTATING

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
        if plan.mode != Corruption.WRONG_SCHEDULE or plan.done or index < plan.deal:
            return cards, kind
        if schedule_for(self.r, self.n) is None:
            banned = [k for k in DealKind if k not in self.r.kinds_allowed]
            kind = plan.rng.choice(banned)
        else:
            cards = plan.rng.choice([c for c in range(1, self.m + 1) if c != cards])
        plan.found(index)
        return cards, kind

    def _play_deal(self, index: int, cards: int, kind: DealKind, dealer: int) -> Deal:
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
        deal = Deal(index, cards, kind, dealer, hands)
        from_card = (
            r.trump in (TrumpMode.CARD, TrumpMode.DECLARED) and kind is not DealKind.NO_TRUMP
        )
        if from_card:
            source = (
                r.trump_card_source if r.trump is TrumpMode.CARD else TrumpCardSource.DEALER_LAST
            )
            if source is TrumpCardSource.ANY:
                deal.trump_card = drawn
            elif source is TrumpCardSource.STOCK and not dealt_all:
                deal.trump_card = deck[cards * n]
            else:
                deal.trump_card = last
        self._duplicate(deal)
        if kind is DealKind.NO_TRUMP or self.rotating:
            self.trump = -1
        elif r.trump is TrumpMode.FIXED:
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
        bids, blind, taken = deal.bids, deal.blind, deal.taken
        if r.teams is not None:  # each seat scored as its team
            bids, blind, taken, fines = team_view(r.teams, bids, blind, taken, fines)
        for seat in range(n):
            bid = None if bids is None else bids[seat]
            score = deal_score(r, kind, cards, bid, blind[seat], taken[seat])
            deal.scores.append(score - fines[seat])
        return deal

    def _bids(self, deal: Deal) -> None:
        """Sequential bidding, RULES §3: the hook, three passes, optional blind bids."""
        r = self.r
        n = self.n
        rng = self.rng
        plan = self.plan
        cards = deal.cards
        first = deal.dealer if r.first_bidder_is_dealer else (deal.dealer + 1) % n
        order = [(first + i) % n for i in range(n)]
        bids = [0] * n
        blind = [deal.kind is DealKind.DARK] * n
        written: list[Any] = [0] * n
        dark_pass = -1
        if plan.mode == Corruption.DARK_PASS and not plan.done and plan.deal <= deal.index:
            eligible = [
                s
                for s in (order[:-1] if r.hook else order)
                if deal.kind is not DealKind.DARK
                and not (r.three_passes and self.pass_runs[s] >= 2)
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
            if last and r.hook and plan.mode == Corruption.HOOK and 0 <= cards - before <= cards:
                forced = cards - before
                if not (forced == 0 and banned):
                    spot = Spot(deal.index, seat=seat, cards=(forced,))
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
                and deal.kind is not DealKind.DARK
                and rng.random() < 0.07
                and not (plan.mode == Corruption.THREE_PASSES and seat == plan.seat)
            ):
                guess = max(1, round(self._estimate([], cards, True)))
                if guess in allowed:
                    bids[seat], written[seat], blind[seat] = (
                        guess,
                        {"bid": guess, "dark": True},
                        True,
                    )
                    continue
            estimate = self._estimate(
                deal.hands[seat], cards, deal.kind in (DealKind.DARK, DealKind.FOREHEAD)
            )
            bid = min(allowed, key=lambda b: (abs(b - estimate), rng.random()))
            bids[seat] = bid
            if deal.kind is DealKind.DARK and bid and rng.random() < 0.05:
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

    def _auction(self, deal: Deal) -> None:
        """The podkidnoy auction, RULES §10.10: rounds of calls from the dealer's left until one
        player alone holds the highest call; that declarer names the trump."""
        n = self.n
        rng = self.rng
        cards = deal.cards
        first = deal.dealer if self.r.first_bidder_is_dealer else (deal.dealer + 1) % n
        order = [(first + i) % n for i in range(n)]
        blind = deal.kind is DealKind.DARK
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
        if deal.kind is DealKind.NO_TRUMP:
            self.trump = -1
        elif blind or rng.random() < 0.1:
            self.trump = rng.choice([-1, 0, 1, 2, 3])
        else:
            hand = deal.hands[declarer]
            self.trump = max(
                range(4),
                key=lambda s: (
                    sum(
                        1 + rank_of(c) / 13
                        for c in hand
                        if suit_of(c) == s and c not in self.jokers
                    ),
                    rng.random(),
                ),
            )

    def _tricks(self, deal: Deal, fines: list[Number]) -> None:
        r = self.r
        n = self.n
        hands = [list(h) for h in deal.hands]
        played: list[list[int]] = [[] for _ in range(n)]
        taken = [0] * n
        leader = deal.dealer if r.first_leader_is_dealer else (deal.dealer + 1) % n
        for t in range(deal.cards):
            if self._claim(deal, t, leader, hands, self.claims):
                deal.claim = leader
                taken[leader] += deal.cards - t
                break
            plays: list[Play] = []
            seat = leader
            for k in range(n):
                play = self._corrupt_play(deal, t, k, seat, plays, hands, played)
                if play is None:
                    options = self._options(hands[seat], plays, t)
                    play = self._choose(deal, seat, taken, options, plays)
                elif (
                    self.plan.mode in (Corruption.REVOKE, Corruption.MUST_TRUMP)
                    and r.revoke_penalty is not None
                ):
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


def simulate_game(
    ruleset: str | dict[str, Any],
    players: int,
    seed: int,
    *,
    corrupt: str | None = None,
    sheet: bool = False,
    names: list[str] | None = None,
    claims: bool = False,
) -> dict[str, Any]:
    """One complete random legal game as a ``raspis/1`` record (docs/format.md), deterministic in
    its arguments; with ``corrupt`` one of ``CORRUPTIONS``, exactly one defect of that kind,
    located in ``record["meta"]["corruption"]`` (1-based deal/trick/play, 0-based seat, None
    where not applicable). ``sheet`` drops ``tricks`` and ``hands``: a score-sheet record.
    ``claims`` lets the seat to lead claim the rest of a deal when it can take every
    remaining trick (in the deal's last three tricks).

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
    mode = None
    if corrupt is not None:
        check_applicable(resolved, corrupt, sheet)
        mode = Corruption(corrupt)
    for attempt in range(_ATTEMPTS):
        game_seed = seed if attempt == 0 else _derived(seed, -attempt)
        record = _attempt(resolved, ruleset, players, game_seed, names, mode, claims)
        if record is not None:
            break
    else:
        raise ValueError(f"found no place for {corrupt} in {_ATTEMPTS} games")
    if sheet:
        for deal in record["deals"]:
            deal.pop("tricks")
            deal.pop("hands", None)
            deal.pop("claim", None)
    return record


def _attempt(
    ruleset: Ruleset,
    value: Any,
    players: int,
    seed: int,
    names: list[str],
    corrupt: Corruption | None,
    claims: bool = False,
) -> Json | None:
    """One game, corrupted as asked; None when this game has no place for the corruption."""
    crng = random.Random(f"raspis-corrupt/{seed}")
    plan = Plan(corrupt, crng)
    if corrupt in SEARCHED_MODES:
        plan.recording = True
        Game(ruleset, value, players, seed, names, plan, claims).run()
        if not plan.spots:
            return None
        plan = Plan(corrupt, crng, target=crng.choice(plan.spots))
    elif corrupt in _AT_A_DEAL:
        schedule = Game(ruleset, value, players, seed, names, plan).schedule
        places = list(range(len(schedule)))
        if corrupt == Corruption.THREE_PASSES:  # early enough for two passes and a third
            places = [i for i in places if ruleset.bids_in(schedule[i][1])]
            places = places[: max(1, len(places) // 2)]
        elif corrupt == Corruption.DARK_PASS:
            places = [
                i
                for i, (_, k) in enumerate(schedule)
                if ruleset.bids_in(k) and k is not DealKind.DARK
            ]
        if not places:
            return None
        plan.deal = crng.choice(places)
        if corrupt == Corruption.THREE_PASSES:
            plan.seat = crng.randrange(players)
    record = Game(ruleset, value, players, seed, names, plan, claims).run()
    if corrupt in (Corruption.WRONG_SCORE, Corruption.WRONG_TOTAL, Corruption.WRONG_DEALER):
        mutate(record, plan, players)
    if corrupt is None:
        return record
    if not plan.done:
        return None
    record["meta"]["corruption"] = plan.location
    return record


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
    claims: bool = False,
) -> Iterator[dict[str, Any]]:
    """``games`` records; game ``i`` is ``simulate_game`` with a seed derived from ``seed``
    and ``i``."""
    for i in range(games):
        yield simulate_game(
            ruleset, players, _derived(seed, i), corrupt=corrupt, sheet=sheet, claims=claims
        )
