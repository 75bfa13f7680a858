"""The replay of a ``raspis/1`` record: a parsed record → the report of docs/format.md, deal by
deal, play by play.

Every rule check appends a finding and the replay goes on with the play as recorded (and
with the dealer, leader and trump the rules give, RULES §10.11), so one report lists every
problem. A deal goes through its phases in order, each in its own module: the schedule and
the hands (``hands``), the trump (``trump``), the bids (``bidding``), the tricks (``play``,
with ``jokers``), a claim of the last tricks (``claim``), the scores (``scoring``) and the
claimed values (``claimed``); ``DealContext`` carries the deal from one to the next. What
lasts from deal to deal (running totals, pass runs, findings) is the ``Game``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

from ..findings import Code, Finding, Severity, pointer
from ..report import Audit, verdict_of
from ..scores import Number, Score, binary_float
from .bidding import bidding
from .claim import settle_claim
from .claimed import compare
from .context import DealContext, count
from .hands import check_leftovers, check_schedule, dealt, jokers_played, masks_from_plays
from .parse import Deal, Record, parse_record
from .play import run
from .report import DealResult, Report, malformed
from .rulesets import TrumpMode, resolve_ruleset
from .scoring import deal_score
from .table import EVERY_CARD, table_for
from .teams import team_deals, team_view
from .trump import deal_trump

#: Enum members read from their class cost a descriptor call each in Python 3.11: the ones
#: every deal asks for are read once, here.
_FULL: Final = Audit.FULL
_SHEET: Final = Audit.SHEET
_MIXED: Final = Audit.MIXED


def verify(obj: Any, stored_rulesets: Mapping[str, Any] | None = None) -> Report:
    """A decoded ``raspis/1`` record → its report. Never raises on bad input."""
    record, findings = parse_record(obj, stored_rulesets)
    if record is None:
        ruleset = None
        if isinstance(obj, dict):
            ruleset = resolve_ruleset(obj.get("ruleset"), stored_rulesets)[0]
        return malformed(findings, ruleset)
    return replay(record)


def replay(record: Record, *, fast_loop: bool = True) -> Report:
    """The report of a parsed record. ``fast_loop=False`` sends every trick through the
    general trick loop (``play.joker_trick``), which must report the same: a test holds
    the two loops to it."""
    game = Game(record, fast_loop=fast_loop)
    for deal in record.deals:
        game.play_deal(deal)
    return game.report()


class Game:
    """The state carried from deal to deal: running totals, pass runs, findings."""

    def __init__(self, record: Record, *, fast_loop: bool = True) -> None:
        self.record = record
        self.players = record.players
        self.n = len(record.players)
        # Ranges made once: in Python 3.11 a range costs more to make than to walk.
        self.seats = range(self.n)
        self.following = range(1, self.n)  #: the places of the followers in a trick
        self.ruleset = record.ruleset
        self.first_dealer = record.first_dealer
        self.rotating = self.ruleset.trump is TrumpMode.ROTATING
        # The table's values are read into attributes: the trick loops read them per trick.
        table = table_for(self.ruleset, self.n)
        self.deck = table.deck
        self.deck_bits = table.deck_bits
        self.copies = table.copies
        self.deck_size = table.deck_size
        self.schedule = table.schedule
        self.obliging = table.obliging
        self.trump_obliging = table.trump_obliging
        self.plain_codes = table.plain_codes if fast_loop else frozenset[int]()
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
        self.claim_nodes = 0  #: the solver's nodes spent on this record's claims (``claim``)

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

    def play_deal(self, deal: Deal) -> None:
        """Replay one deal and compare its claims.

        A legal deal is the common case, so each rule is first tested inline with one
        cheap comparison and the function that words the finding is called only when that
        test fails: per deal, the checks that find nothing cost no calls.
        """
        n = self.n
        index = deal.index
        number = index + 1
        cards = deal.cards
        dealer = (self.first_dealer + index) % n
        result = DealResult(
            number, dealer, None, None, [], [], [], deal.kind, cards, _FULL, [], None,
            deal.declarer, [], [], None,
        )  # fmt: skip
        ctx = DealContext(self, deal, number, dealer, [0] * n, result)
        if deal.dealer is not None and deal.dealer != dealer:
            ctx.find(
                Code.DEAL_DEALER,
                f"deal {number} is dealt by seat {dealer}, not {deal.dealer}",
                expected=dealer,
                actual=deal.dealer,
                path=pointer("deals", index, "dealer"),
            )
        schedule = self.schedule
        if schedule is None or index >= len(schedule) or schedule[index] != (cards, deal.kind):
            check_schedule(ctx)
        if cards * n > self.deck_size:
            ctx.find(
                Code.DEAL_CARDS,
                f"{count(cards, 'card')} each for {n} players is more than the "
                f"{self.deck_size}-card deck",
                expected=self.deck_size // n,
                actual=cards,
                path=pointer("deals", index, "cards"),
            )
        masks = None
        if deal.written_hands is not None:
            masks, result.jokers_held = dealt(ctx)
        trump = ctx.trump = deal_trump(ctx, masks)
        if not self.rotating:
            result.trump = trump
        bidding(ctx)
        if deal.tricks is not None:
            first = dealer if self.ruleset.first_leader_is_dealer else (dealer + 1) % n
            if masks is None:
                scratch = DealResult(number, dealer, None, None, [], [], [])
                silent = DealContext(self, deal, number, dealer, [0] * n, scratch, trump)
                left = [EVERY_CARD] * n
                run(silent, first, left, [0] * n, checks=False)
                masks = masks_from_plays(ctx, first, left, scratch.trick_winners)
            singles, doubles = masks
            taken = result.taken = run(ctx, first, singles, doubles, checks=True)
            if deal.written_hands is not None and len(deal.tricks) == cards and any(singles):
                check_leftovers(ctx, singles)
            if deal.claim is not None:
                settle_claim(ctx, first, singles, doubles)
            if deal.taken is not None and deal.taken != taken:
                compare(
                    self,
                    deal.taken,
                    taken,
                    Code.RESULT_TAKEN,
                    number,
                    "number of tricks taken",
                    "taken",
                    index,
                )
        else:
            result.audit = _SHEET
            taken = result.taken = list(deal.taken or [0] * n)
            if sum(taken) != cards:
                ctx.find(
                    Code.RESULT_SUM,
                    f"the tricks taken add up to {sum(taken)}, not {cards}",
                    expected=cards,
                    actual=sum(taken),
                    path=pointer("deals", index, "taken"),
                )
        # Scores (RULES §7): a (kind, cards, bid, blind, taken) key recurs all game long, and
        # in every game of the preset, so each is scored once (``Ruleset.scores``). Running
        # totals are scaled ints (``Table.scale``), turned back into scores for the report.
        kind = deal.kind
        bids = result.bids
        blind = result.blind
        fines = ctx.fines
        ruleset = self.ruleset
        scores = result.scores
        totals = result.running
        scale = self.scale
        running = self.scaled_running
        cache = self.score_cache
        binary = self.binary
        teams = ruleset.teams
        if teams is not None:  # each seat scored as its team (``teams.team_view``)
            bids, blind, taken, fines = team_view(teams, bids, blind, taken, fines)
        for seat in self.seats:
            key = (kind, cards, None if bids is None else bids[seat], blind[seat], taken[seat])
            known = cache.get(key)
            if known is None:
                exact_score = deal_score(ruleset, *key)
                known = cache[key] = (self._exact(exact_score), int(exact_score * scale))
            score, scaled = known
            if fines[seat]:
                scaled -= int(fines[seat] * scale)
                score = self._exact(Fraction(scaled, scale))
            scores.append(score)
            running[seat] = total = running[seat] + scaled
            if total % scale == 0:
                totals.append(total // scale)
            elif binary:  # exact, and the float ``_exact`` would make of the fraction
                try:
                    totals.append(total / scale)
                except OverflowError:  # a claimed taken of 10**400: past any float
                    totals.append(Fraction(total, scale))
            else:
                totals.append(Fraction(total, scale))
        self.running = totals
        if teams is not None:
            result.teams = team_deals(teams, result.bids, result.taken, scores)
        if deal.scores is not None and deal.scores != scores:
            compare(
                self, deal.scores, scores, Code.RESULT_SCORE, number, "deal score", "scores", index
            )
        if deal.running is not None and deal.running != totals:
            compare(
                self,
                deal.running,
                totals,
                Code.RESULT_RUNNING,
                number,
                "running total",
                "running",
                index,
            )
        if result.jokers_held is None:
            result.jokers_held = jokers_played(ctx)
        self.results.append(result)

    def _exact(self, value: Number) -> Score:
        if isinstance(value, Fraction):
            if value.denominator == 1:
                return value.numerator
            return binary_float(value) if self.binary else value
        return value

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
        compare(
            self,
            record.totals,
            self.running,
            Code.RESULT_TOTAL,
            None,
            "final total",
            "totals",
            None,
        )
        best = max(self.running)
        winners = [seat for seat, total in enumerate(self.running) if total == best]
        audits = {r.audit for r in self.results}
        audit = audits.pop() if len(audits) == 1 else (_MIXED if audits else _FULL)
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
