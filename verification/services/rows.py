"""The engine's report → database rows: seats, seat-deals, findings, and the values of a
record's ``meta`` that games keep in columns.

Ingest writes one row per seat per deal (about 145 for a four-player classic game), so rows
are built as plain tuples, in the order of the ``*_FIELDS`` that ``core.bulk`` writes them
by. Values are held to their columns' range and text cleaned (``clean_text``) here, since a
record may claim anything.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from itertools import chain
from operator import add
from typing import Any

from django.utils import timezone

from core.bulk import clean_text
from replay import AnyFinding, DealResult

JOKER_HIGH = (0, 1)  #: a silent joker (detsky) is played high
JOKER_LOW = 2
JOKER_PLAIN = 3
JOKER_DEMAND = (4, 5)
JOKER_LEAD_HIGHEST = 4
_NO_JOKER: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0)  #: a seat's joker counts when it plays none
SCORE_SCALE = 10_000  #: the score columns' four places
INT_MAX = 2**31 - 1
PLAYER_MAX = 200  #: the player name columns' length
SCORE_MAX = Decimal(10) ** 10 - 1
_UNITS_MAX = int(SCORE_MAX) * SCORE_SCALE
_SCORE_HALF = int(SCORE_MAX) // 2


def score_units(score: int | float | Fraction | Decimal) -> int:
    """A score in 1/SCORE_SCALE points (the columns' four places), rounded half to even.

    The statistics count points in these units too (``stats.contributions``), so a score
    read back from a column is exactly the one the replay gave, rounded the same way.
    """
    if type(score) is int:
        return score * SCORE_SCALE
    return round(Fraction(score) * SCORE_SCALE)


def score_value(score: int | float | Fraction) -> int | Decimal:
    """An engine score for a decimal column: ``score_units`` of it, held to the column's range.

    Scores are exact ints or fractions, or finite floats: fractions of a point in binary
    (halves), or claimed by a sheet (the engine finds ``NaN`` and ``Infinity`` malformed).
    A fraction or float past the column's range (an illegal record's bid of 10**30 scores
    10**31) is held to it; ints are left to ``_clamp``, where the game is not trusted.
    """
    if type(score) is int:
        return score
    if isinstance(score, float):
        return _float_score(score)
    return _units_value(score_units(score))


@functools.lru_cache(maxsize=1024)
def _float_score(score: float) -> Decimal:
    """``score_value`` of a float. The same few halves recur in every game of a ruleset that
    scores them, and converting each took a fiftieth of ingest's time."""
    return _units_value(score_units(score))


def _units_value(units: int) -> Decimal:
    return Decimal(max(-_UNITS_MAX, min(_UNITS_MAX, units))).scaleb(-4)


def point_value(meta: Any) -> str | None:
    """``meta.point_value`` as a decimal numeral when it is a positive finite number (a
    numeric string too), for ``Game.point_value``; None otherwise (meta is free)."""
    if not isinstance(meta, dict):
        return None
    value = meta.get("point_value")
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    if not number.is_finite() or number <= 0:
        return None
    return str(number)


def played_at(meta: Any) -> datetime | None:
    """``meta.played_at`` as an aware datetime, or None when absent or unreadable (meta is free)."""
    if not isinstance(meta, dict) or not isinstance(meta.get("played_at"), str):
        return None
    try:
        when = datetime.fromisoformat(meta["played_at"].strip())
    except ValueError:
        return None
    try:
        if timezone.is_naive(when):
            when = timezone.make_aware(when, timezone.get_default_timezone())
        # The database keeps UTC: a time that has none (year 9999 at -23:59) is unreadable,
        # and PostgreSQL takes no offset past 15:59, so it never sees the one written (+16:43).
        return when.astimezone(UTC)
    except OverflowError:
        return None


def meta_text(meta: Any, key: str, limit: int = 200) -> str:
    """A short text field of ``meta`` (numbers accepted, e.g. an external id of 17)."""
    if not isinstance(meta, dict):
        return ""
    value = meta.get(key)
    if isinstance(value, bool) or not isinstance(value, str | int):
        return ""
    return clean_text(str(value).strip())[:limit]


@dataclass(frozen=True, slots=True)
class Standings:
    """The seats' final results: totals, their places (1 is best), and the winners."""

    totals: Sequence[Any]
    places: list[int]
    winners: set[int]


SEAT_FIELDS = ("game_id", "seat", "player_id", "name", "total", "place", "winner")


def seat_rows(
    game_id: int, standings: Standings, player_ids: Sequence[int], names: Sequence[str]
) -> list[tuple[Any, ...]]:
    return [
        (
            game_id,
            seat,
            player_ids[seat],
            names[seat],
            _clamp(score_value(t)),
            standings.places[seat],
            seat in standings.winners,
        )
        for seat, t in enumerate(standings.totals)
    ]


SEAT_DEAL_FIELDS = (
    "game_id",
    "seat",
    "number",
    "kind",
    "cards",
    "trump",
    "bid",
    "dark",
    "taken",
    "score",
    "running",
    "jokers",
    "joker_high",
    "joker_low",
    "joker_plain",
    "joker_demand",
    "joker_wins",
    "joker_lead_highest",
    "jokers_held",
    "hook",
)


def seat_deal_rows(
    game_id: int,
    deals: Sequence[DealResult],
    players: int,
    *,
    trusted: bool,
    hook: bool,
) -> list[tuple[Any, ...]]:
    """One tuple per seat per deal, in ``SEAT_DEAL_FIELDS`` order; ``hook``: the ruleset's.

    A seat-deal names its seat, not its player: the game's seats (``GameSeat``) say who sat
    there, so that merging two players changes no seat-deal.

    An illegal record may claim absurd numbers (a bid of 10**30): unless the game is
    ``trusted`` (verified, so every number was checked), values are clamped to the columns'
    range. The stored record and report keep them exactly. A verified game's scores are only
    as small as its ruleset makes them (a club may score a trick at 10**12 points), so they
    are looked at before the game is trusted.
    """
    trusted = trusted and _scores_fit(deals)
    rows: list[tuple[Any, ...]] = []
    append = rows.append
    n = players
    seats = range(n)
    no_jokers = [_NO_JOKER] * n
    no_bids = [None] * n
    no_blind = [False] * n
    unknown = [None] * n
    for d in deals:
        number, kind, cards, trump = d.number, d.kind, d.cards, d.trump
        bids = d.bids or no_bids
        blind = d.blind or no_blind
        taken, scores, running = d.taken, d.scores, d.running
        counts = _joker_counts(d, n) if d.jokers else no_jokers
        held = unknown if d.jokers_held is None else d.jokers_held
        hooked = d.last_bidder if hook else None
        for seat in seats:
            score = scores[seat]
            total = running[seat]
            # Unpacked so that each row is one tuple: concatenated, it took three more.
            plays, high, low, plain, demand, wins, lead_highest = counts[seat]
            append(
                (
                    game_id,
                    seat,
                    number,
                    kind,
                    cards,
                    trump,
                    bids[seat],
                    blind[seat],
                    taken[seat],
                    # Nearly every score is an int, which score_value returns as it is.
                    score if type(score) is int else score_value(score),
                    total if type(total) is int else score_value(total),
                    plays,
                    high,
                    low,
                    plain,
                    demand,
                    wins,
                    lead_highest,
                    held[seat],
                    seat == hooked,
                )
            )
    return rows if trusted else [tuple(_clamp(v) for v in row) for row in rows]


def _scores_fit(deals: Sequence[DealResult]) -> bool:
    """Whether every score and running total is within the score columns' range. It may say
    no for a game that fits, where clamping then changes nothing; never yes for one that does
    not.

    Only the running totals are read, within half the range: a deal's score is the difference
    of two of them (the first from 0), so it is within the range too. Nothing else of a
    verified game can be past its column: the deck bounds cards, bids and taken.
    """
    if not deals:
        return True
    # One list of them all: a min and a max of each deal's took twice as long.
    running = list(chain.from_iterable([d.running for d in deals]))
    return min(running) >= -_SCORE_HALF and max(running) <= _SCORE_HALF


def _clamp(value: Any) -> Any:
    if type(value) is int:
        return max(-INT_MAX, min(INT_MAX, value))
    if isinstance(value, Decimal):
        return max(-SCORE_MAX, min(SCORE_MAX, value))
    return value


def _joker_counts(deal: DealResult, n: int) -> list[tuple[int, ...]]:
    """Each seat's joker counts in the deal, in ``seat_deal_rows``' order (plays, high, low,
    plain, demand, wins, lead_highest).

    A seat mostly plays one joker a deal, if any, and its counts are then those of that one
    play, made once per declaration and outcome (``_play_counts``): counting every play anew
    took a third of the time of a game's seat-deal rows.
    """
    counts: list[tuple[int, ...]] = [_NO_JOKER] * n
    for joker in deal.jokers:
        seat = joker.seat
        play = _play_counts(joker.declaration, joker.won)
        counts[seat] = play if counts[seat] is _NO_JOKER else tuple(map(add, counts[seat], play))
    return counts


@functools.lru_cache(maxsize=64)
def _play_counts(declaration: int, won: bool) -> tuple[int, ...]:
    """The joker counts of one play (``_joker_counts``)."""
    return (
        1,
        int(declaration in JOKER_HIGH),
        int(declaration == JOKER_LOW),
        int(declaration == JOKER_PLAIN),
        int(declaration in JOKER_DEMAND),
        int(won),
        int(declaration == JOKER_LEAD_HIGHEST),
    )


FINDING_FIELDS = (
    "report_id",
    "game_id",
    "code",
    "severity",
    "deal",
    "trick",
    "play",
    "seat",
    "player",
    "message",
    "expected",
    "actual",
    "path",
)


def player_column(name: str) -> str:
    """A player's name as the name columns hold it: seats, findings, and the lookups of
    players by name. The record and report keep the whole name."""
    return clean_text(name)[:PLAYER_MAX]


def finding_rows(
    report_id: int, game_id: int, findings: Sequence[AnyFinding]
) -> list[tuple[Any, ...]]:
    """One tuple per finding, in ``FINDING_FIELDS`` order: a family's three places in the
    columns ``deal``, ``trick`` and ``play`` (``replay.PLACES``)."""
    return [
        (
            report_id,
            game_id,
            str(f.code),
            str(f.level),
            *f.places,
            f.seat,
            None if f.player is None else player_column(f.player),  # the report keeps it whole
            clean_text(f.message),
            f.expected,
            f.actual,
            f.path if f.path is None else clean_text(f.path),
        )
        for f in findings
    ]
