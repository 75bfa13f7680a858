"""Writes of statistics, ratings and leaderboards; the Celery tasks and the command call these.

Which games count
    A game counts when it is public and its result stands:

    - status ``verified`` (the replay found nothing wrong and no reviewer overturned it) or
      ``resolved`` (a reviewer corrected the final totals: the corrected seats count);
    - status ``disputed``: an open dispute is an objection, not a decision, so the game
      counts as it stood before it: when the latest dispute decided since the current record
      was stored is ``corrected``, or when it is ``rejected`` or there is none and the verdict
      is ``verified``. (Otherwise anyone could take a lost game out of the ratings by
      disputing it.)
    - ``flagged`` games never count: illegal or mismatched records waiting for review, and
      games whose dispute was ``upheld`` (overturned: they leave the statistics).

    Private games count nowhere (statistics are public), nor does a game in which one player
    holds two seats (two names that are aliases of one player).

    Ratings, and so the leaderboards, take only the counted games that someone other than
    their uploader stands behind (``GameFact.vouched``, docs/trust.md): one account alone
    cannot rate a name of its choosing, however many games it uploads.

How it is kept
    Each counted game has a ``GameFact`` and one ``SeatFact`` per seat holding its
    contribution (``stats.contributions``). ``stats_update_games`` makes the facts of the
    given games match their current state and applies the difference to the aggregate rows
    of those games' players only — four ``PlayerStat`` rows per seat (ruleset and all, month
    and all time) and the ``HeadToHead`` rows of the table — so its cost does not grow with
    the number of games stored. Ratings are replayed in played order from the earliest
    changed game of a ruleset (a new latest game replays just itself). The all-time rows
    touched get their API answer rendered again (``PlayerStat.body``). ``stats_recompute``
    rebuilds everything from the games through the same functions, so both paths give the
    same numbers: counters are integers, and a rating replay starts from the stored floats.
    Writers hold ``StatsLock`` for their whole transaction, so two workers never interleave.

    Changed games are queued (``PendingUpdate``) and each change sends a task that takes the
    whole queue (``stats_update_pending``): under load, one update covers every game queued
    while the worker was busy, where an update per change paid its fixed cost each time (one
    game costs about as much as a hundred: ``bench/stats.py``).
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import orjson
from django.conf import settings
from django.db import connection, transaction
from django.db.models import BigIntegerField, Count, F, Max, Min, Q
from django.db.models.functions import Cast, Round
from django.utils import timezone
from openskill.models import PlackettLuce

from core.bulk import bulk_insert, bulk_upsert, jsonb_text
from games.models import (
    Dispute,
    DisputeStatus,
    Game,
    GameRecord,
    GameSeat,
    GameStatus,
    Visibility,
)
from games.selectors import games_vouched
from replay import PRESET_FAMILIES, Family, Verdict, seats_compete
from stats import selectors
from stats.contributions import (
    POKER_COLUMNS,
    RUMMY_COLUMNS,
    SCALE,
    SEAT_DEAL_COLUMNS,
    PokerRow,
    RummyRow,
    SeatDealRow,
    SeatResult,
    add,
    game_contribution,
    pairs,
    poker_counters,
    rummy_counters,
)
from stats.models import (
    ALL,
    STAT_COLUMNS,
    GameFact,
    HeadToHead,
    LeaderboardSnapshot,
    PendingUpdate,
    PlayerStat,
    Rating,
    RatingEntry,
    SeatFact,
    StatsLock,
)
from verification.models import Finding, PokerSeatHand, RummySeatDeal, SeatDeal

CHUNK = 500
MODEL = PlackettLuce()
DECIDED = (DisputeStatus.UPHELD, DisputeStatus.REJECTED, DisputeStatus.CORRECTED)

StatKey = tuple[int, str, str]  #: (player, ruleset key or ALL, month or ALL)
PairKey = tuple[int, int, str]  #: (player_a, player_b, ruleset key or ALL)
Start = tuple[dt.datetime, int]  #: a place in played order: (when, game id)


@dataclass(frozen=True, slots=True)
class RecomputeSummary:
    games: int
    seats: int
    ratings: int


# -- which games count, and what they contribute ---------------------------------------------


def game_counts(*, visibility: str, status: str, verdict: str, latest_decision: str | None) -> bool:
    """The counting rule of the module docstring."""
    if visibility != Visibility.PUBLIC:
        return False
    if status in (GameStatus.VERIFIED, GameStatus.RESOLVED):
        return True
    if status != GameStatus.DISPUTED:
        return False
    if latest_decision == DisputeStatus.CORRECTED:
        return True
    return latest_decision != DisputeStatus.UPHELD and verdict == Verdict.VERIFIED


def ruleset_key(preset: str, name: str) -> str:
    return name or preset


def month_of(when: dt.datetime) -> str:
    local = timezone.localtime(when)
    return f"{local.year:04d}-{local.month:02d}"


def _facts_build(game_ids: Sequence[int]) -> dict[int, tuple[GameFact, list[SeatFact]]]:
    """The facts the games should have now; games that do not count are absent."""
    games = list(
        Game.objects.filter(pk__in=game_ids).values(
            "id",
            "ruleset_preset",
            "ruleset_name",
            "played_at",
            "created_at",
            "visibility",
            "status",
            "verdict",
            "point_value",
            "family",
        )
    )
    if not games:
        return {}
    ids = [g["id"] for g in games]
    records = {
        r["game_id"]: r
        for r in GameRecord.objects.filter(game_id__in=ids, current=True).values(
            "game_id", "created_at"
        )
    }
    decisions = _latest_decisions(
        [g["id"] for g in games if g["status"] == GameStatus.DISPUTED], records
    )
    counted = [
        g
        for g in games
        if g["id"] in records
        and game_counts(
            visibility=g["visibility"],
            status=g["status"],
            verdict=g["verdict"],
            latest_decision=decisions.get(g["id"]),
        )
    ]
    if not counted:
        return {}
    ids = [g["id"] for g in counted]
    vouched = games_vouched(game_ids=ids)
    seats: dict[int, list[SeatResult]] = defaultdict(list)
    for s in GameSeat.objects.filter(game_id__in=ids).values_list(
        "game_id", "seat", "player_id", "total", "place", "winner"
    ):
        seats[s[0]].append(SeatResult(*s[1:]))
    findings: dict[int, dict[int, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for game_id, seat, code, n in (
        Finding.objects.filter(game_id__in=ids, report__current=True, seat__isnull=False)
        .values_list("game_id", "seat", "code")
        .annotate(n=Count("id"))
    ):
        findings[game_id][seat][code] = n
    deals: dict[int, list[SeatDealRow]] = defaultdict(list)
    rows = (
        SeatDeal.objects.filter(game_id__in=ids)
        # The column holds the score rounded to 1/SCALE already; ROUND only drops the
        # binary noise of SQLite, which keeps decimals as floats.
        .annotate(points=Cast(Round(F("score") * SCALE), BigIntegerField()))
        .order_by()
        .values_list(*SEAT_DEAL_COLUMNS)
    )
    # The ORM's statement, its rows taken from the cursor as they come: Django's iteration
    # cost as much again as the fetch. (SQLite then gives its booleans as 0 and 1, which
    # count alike.)
    sql, params = rows.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for row in cursor.fetchall():
            deals[row[0]].append(row)
    family = _family_counters(counted)
    out: dict[int, tuple[GameFact, list[SeatFact]]] = {}
    for g in counted:
        game_seats = sorted(seats.get(g["id"], []), key=lambda s: s.seat)
        if not game_seats or len({s.player_id for s in game_seats}) != len(game_seats):
            continue
        contributions = game_contribution(
            seats=game_seats,
            deals=deals.get(g["id"], ()),
            findings=findings.get(g["id"], {}),
            point_value=g["point_value"],
            family=family.get(g["id"]),
        )
        key = ruleset_key(g["ruleset_preset"], g["ruleset_name"])
        when = g["played_at"] or g["created_at"]
        month = month_of(when)
        fact = GameFact(
            game_id=g["id"],
            ruleset=key,
            when=when,
            month=month,
            seats=[[c.player_id, c.place] for c in contributions],
            # A casino's seats each play the house: their places rank no one, so the game
            # is rated by no one either.
            vouched=g["id"] in vouched and seats_compete(g["ruleset_preset"]),
        )
        seat_facts = [
            SeatFact(
                game_id=g["id"],
                seat=c.seat,
                player_id=c.player_id,
                ruleset=key,
                month=month,
                total=c.total,
                place=c.place,
                winner=c.winner,
                counters=c.counters,
            )
            for c in contributions
        ]
        out[g["id"]] = (fact, seat_facts)
    return out


def _family_counters(games: Sequence[Mapping[str, Any]]) -> dict[int, dict[int, dict[str, int]]]:
    """The rummy's and the poker's counters of each of their games, by game and seat."""
    ids = {
        kind: [g["id"] for g in games if g["family"] == kind]
        for kind in (Family.RUMMY, Family.POKER)
    }
    out: dict[int, dict[int, dict[str, int]]] = {}
    if ids[Family.RUMMY]:
        rummy: dict[int, list[RummyRow]] = defaultdict(list)
        for row in (
            RummySeatDeal.objects.filter(game_id__in=ids[Family.RUMMY])
            .annotate(units=Cast(Round(F("points") * SCALE), BigIntegerField()))
            .order_by()
            .values_list(*("units" if c == "points" else c for c in RUMMY_COLUMNS))
        ):
            rummy[row[0]].append(row)
        out.update((game_id, rummy_counters(rows)) for game_id, rows in rummy.items())
    if ids[Family.POKER]:
        poker: dict[int, list[PokerRow]] = defaultdict(list)
        for row in (
            PokerSeatHand.objects.filter(game_id__in=ids[Family.POKER])
            .order_by()
            .values_list(*POKER_COLUMNS)
        ):
            poker[row[0]].append(row)
        out.update((game_id, poker_counters(rows)) for game_id, rows in poker.items())
    return out


def _latest_decisions(
    game_ids: Sequence[int], records: Mapping[int, Mapping[str, Any]]
) -> dict[int, str]:
    """Per disputed game, the latest decision taken since its current record was stored."""
    if not game_ids:
        return {}
    latest: dict[int, str] = {}
    for game_id, status, decided_at in (
        Dispute.objects.filter(game_id__in=game_ids, status__in=DECIDED)
        .order_by("decided_at", "id")
        .values_list("game_id", "status", "decided_at")
    ):
        record = records.get(game_id)
        if record is not None and decided_at is not None and decided_at >= record["created_at"]:
            latest[game_id] = status
    return latest


def _stat_keys(fact: SeatFact) -> tuple[StatKey, ...]:
    p, r, m = fact.player_id, fact.ruleset, fact.month
    return ((p, r, m), (p, r, ALL), (p, ALL, m), (p, ALL, ALL))


def _pair_results(seat_facts: Sequence[SeatFact]) -> Iterator[tuple[PairKey, dict[str, int]]]:
    ruleset = seat_facts[0].ruleset
    for pr in pairs([(f.player_id, f.total, f.place) for f in seat_facts]):
        counters = {
            "games": 1,
            "a_ahead": pr.a_ahead,
            "b_ahead": pr.b_ahead,
            "ties": pr.ties,
            "difference": pr.difference,
        }
        yield (pr.player_a, pr.player_b, ruleset), counters
        yield (pr.player_a, pr.player_b, ALL), counters


# -- the incremental path -------------------------------------------------------------------


def _lock() -> StatsLock:
    try:
        return StatsLock.objects.select_for_update().get(pk=1)
    except StatsLock.DoesNotExist:
        StatsLock.objects.get_or_create(pk=1)
        return StatsLock.objects.select_for_update().get(pk=1)


@transaction.atomic
def stats_update_games(*, game_ids: Iterable[int]) -> int:
    """Bring the statistics and ratings of ``game_ids`` up to date; returns games changed.

    Safe to run twice and in any order: it makes the facts match each game as it is now.
    """
    _lock()
    ids = sorted(set(game_ids))
    changed = 0
    starts: dict[str, Start] = {}
    for i in range(0, len(ids), CHUNK):
        changed += _update_chunk(ids[i : i + CHUNK], starts)
    for ruleset, start in sorted(starts.items()):
        ratings_replay(ruleset=ruleset, start=start)
    return changed


#: The most queued games one ``stats_update_pending`` takes; every queueing sends a task, so
#: the rest are taken by the next.
PENDING_MAX = 5000


def updates_queue(*, game_ids: Iterable[int]) -> None:
    """Queue the statistics update of ``game_ids`` for ``stats_update_pending``, in the
    transaction of the games' change (``stats.apps.games_touched``).

    A game already queued stays queued once, but its row is written again rather than left
    alone: the write locks it until the change commits, so that an update taking the queue
    meanwhile waits to delete it and then reads the game as changed. Left alone, the row
    could be taken while the change is still uncommitted, and the change never counted.
    """
    ids = sorted(set(game_ids))  # in game order, as ``stats_update_pending`` locks them
    bulk_upsert(
        PendingUpdate, ("game_id",), [(i,) for i in ids], unique=("game_id",), replace=("game_id",)
    )


@transaction.atomic
def stats_update_pending() -> int:
    """Update the statistics of every queued game (up to ``PENDING_MAX``); returns the games
    changed. A task finding the queue empty (an earlier one took its games) costs the lock
    and a query.

    The queued rows are deleted before any game is read, in the update's transaction. A
    game changed again meanwhile is not lost. Its change queues it in its own transaction
    (``updates_queue``): queued before that delete, the delete waits for the change to
    commit, and the reads that follow see it; queued after it, its write waits for this
    transaction and then adds a new row for the next task. Rolled back (a worker killed),
    the rows stay.
    """
    _lock()
    # Locked in game order, the order in which a change's queueing writes them: each then
    # waits for the other, and neither can hold a row the other holds while it waits.
    queued = PendingUpdate.objects.select_for_update().order_by("game_id")
    ids = list(queued.values_list("game_id", flat=True)[:PENDING_MAX])
    if not ids:
        return 0
    PendingUpdate.objects.filter(game_id__in=ids).delete()
    return stats_update_games(game_ids=ids)


def _update_chunk(ids: Sequence[int], starts: dict[str, Start]) -> int:
    old_games = {f.game_id: f for f in GameFact.objects.filter(game_id__in=ids)}
    old_seats: dict[int, list[SeatFact]] = defaultdict(list)
    for f in SeatFact.objects.filter(game_id__in=ids).order_by("game_id", "seat"):
        old_seats[f.game_id].append(f)
    new = _facts_build(ids)
    # Summed per player, ruleset and month first, then into the wider rows: a player has
    # several games of a batch in one month, and each sum is a hundred-odd names.
    month_deltas: dict[StatKey, dict[str, int]] = defaultdict(dict)
    added: dict[StatKey, list[Decimal]] = defaultdict(list)
    removed: dict[StatKey, list[Decimal]] = defaultdict(list)
    pair_deltas: dict[PairKey, dict[str, int]] = defaultdict(dict)
    changed = []
    for game_id in ids:
        old_fact, old_list = old_games.get(game_id), old_seats.get(game_id, [])
        new_fact, new_list = new.get(game_id, (None, []))
        if _same(old_fact, old_list, new_fact, new_list):
            continue
        changed.append(game_id)
        for sign, facts, totals in ((-1, old_list, removed), (1, new_list, added)):
            for f in facts:
                add(month_deltas[f.player_id, f.ruleset, f.month], f.counters, sign)
                for key in _stat_keys(f):
                    totals[key].append(f.total)
            if facts:
                for pair, counters in _pair_results(facts):
                    add(pair_deltas[pair], counters, sign)
        if _rating_input(old_fact) != _rating_input(new_fact):
            for fact in (old_fact, new_fact):
                if fact is not None:
                    here = (fact.when, game_id)
                    starts[fact.ruleset] = min(starts.get(fact.ruleset, here), here)
    if not changed:
        return 0
    had = [g for g in changed if g in old_games or g in old_seats]
    if had:
        GameFact.objects.filter(game_id__in=had).delete()
        SeatFact.objects.filter(game_id__in=had).delete()
    stat_deltas: dict[StatKey, dict[str, int]] = defaultdict(dict)
    for (player, ruleset, month), delta in month_deltas.items():
        stat_deltas[player, ruleset, month] = delta
        for key in ((player, ruleset, ALL), (player, ALL, month), (player, ALL, ALL)):
            add(stat_deltas[key], delta)
    fresh = [new[g] for g in changed if g in new]
    _copy(GameFact, [fact for fact, _ in fresh], GAME_FACT_FIELDS)
    _copy(SeatFact, [f for _, seat_facts in fresh for f in seat_facts], SEAT_FACT_FIELDS)
    _stats_apply(stat_deltas, added, removed)
    _pairs_apply(pair_deltas)
    return len(changed)


def _same(
    old_fact: GameFact | None,
    old_list: Sequence[SeatFact],
    new_fact: GameFact | None,
    new_list: Sequence[SeatFact],
) -> bool:
    if (old_fact is None) != (new_fact is None) or len(old_list) != len(new_list):
        return False
    if old_fact is None or new_fact is None:
        return True
    if _rating_input(old_fact) != _rating_input(new_fact) or old_fact.month != new_fact.month:
        return False
    return all(_seat_tuple(a) == _seat_tuple(b) for a, b in zip(old_list, new_list, strict=True))


def _rating_input(fact: GameFact | None) -> tuple[Any, ...] | None:
    if fact is None:
        return None
    return (fact.ruleset, fact.when, [list(s) for s in fact.seats], fact.vouched)


def _seat_tuple(f: SeatFact) -> tuple[Any, ...]:
    return (f.seat, f.player_id, f.ruleset, f.month, f.total, f.place, f.winner, f.counters)


def _row_counters(row: PlayerStat) -> dict[str, int]:
    counters = dict(row.counters)
    for name in STAT_COLUMNS:
        value = getattr(row, name)
        if value:
            counters[name] = value
    return counters


def _row_set(row: PlayerStat, counters: dict[str, int]) -> None:
    rest = dict(counters)
    for name in STAT_COLUMNS:
        setattr(row, name, rest.pop(name, 0))
    row.counters = dict(sorted(rest.items()))


GAME_FACT_FIELDS = ("game_id", "ruleset", "when", "month", "seats", "vouched")
SEAT_FACT_FIELDS = (
    "game_id",
    "seat",
    "player_id",
    "ruleset",
    "month",
    "total",
    "place",
    "winner",
    "counters",
)
RATING_ENTRY_FIELDS = ("player_id", "ruleset", "game_id", "when", "mu", "sigma", "ordinal", "games")


def _json_text(value: Any) -> str:
    """JSON of counters, facts and percentiles for a ``jsonb`` column, by orjson.

    They hold only names, integers and rounded finite floats, which orjson writes as the
    standard library does up to the spelling of exponents (``jsonb`` keeps the numbers, not
    the text), in a fraction of its time. An integer past
    64 bits, which orjson refuses, goes to ``jsonb_text``.
    """
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return jsonb_text(value)


def _copy(model: Any, objs: Sequence[Any], fields: Sequence[str]) -> None:
    """Insert many rows in one statement: ``COPY`` on PostgreSQL, as ingest does."""
    rows = [tuple(getattr(o, name) for name in fields) for o in objs]
    bulk_insert(model, fields, rows, dumps=_json_text)


def _upsert(model: Any, rows: Sequence[Any], unique: Sequence[str], fields: Sequence[str]) -> None:
    """Insert ``rows`` (without primary keys), updating ``fields`` where ``unique`` exists.

    Every row is written with one time of update (``auto_now``), the time of the call.
    """
    if not rows:
        return
    columns = [f for f in model._meta.concrete_fields if not f.primary_key]
    now = timezone.now()
    names = [f.attname for f in columns]
    stamped = [i for i, f in enumerate(columns) if getattr(f, "auto_now", False)]
    values = []
    for row in rows:
        value = [getattr(row, name) for name in names]
        for i in stamped:
            value[i] = now
        values.append(tuple(value))
    bulk_upsert(model, names, values, unique=unique, replace=fields, dumps=_json_text)


STAT_FIELDS = (*STAT_COLUMNS, "counters", "best_total", "version", "updated_at")


def _stats_apply(
    deltas: dict[StatKey, dict[str, int]],
    added: dict[StatKey, list[Decimal]],
    removed: dict[StatKey, list[Decimal]],
) -> None:
    """Add the deltas to the aggregate rows; best totals stay the max over the facts."""
    keys = set(deltas) | set(added) | set(removed)
    if not keys:
        return
    rows = {
        (r.player_id, r.ruleset, r.period): r
        for r in PlayerStat.objects.filter(
            player_id__in={k[0] for k in keys},
            ruleset__in={k[1] for k in keys},
            period__in={k[2] for k in keys},
        ).defer("body")
    }
    writes: list[PlayerStat] = []
    deletes = []
    for key in sorted(keys):
        row = rows.get(key)
        counters = _row_counters(row) if row is not None else {}
        add(counters, deltas.get(key, {}))
        if not counters.get("games"):
            if row is not None:
                deletes.append(row.pk)
            continue
        best: Decimal | None
        ruleset = key[1]
        if row is None:
            best = _best(ruleset, *added[key])
        elif removed.get(key) and (
            row.best_total is None
            or _best(ruleset, *removed[key]) == _best(ruleset, row.best_total, *removed[key])
        ):
            best = _best_total(*key)
        elif added.get(key) and row.best_total is not None:
            best = _best(ruleset, row.best_total, *added[key])
        else:
            best = row.best_total
        # Written even when the sums did not move (a game moved to another month): the
        # all-time row's version and time then validate every month row of the player.
        write = PlayerStat(
            player_id=key[0],
            ruleset=key[1],
            period=key[2],
            best_total=best,
            version=1 if row is None else row.version + 1,
            percentiles={} if row is None else row.percentiles,
        )
        _row_set(write, counters)
        writes.append(write)
    if deletes:
        PlayerStat.objects.filter(pk__in=deletes).delete()
    _bodies_render([w for w in writes if w.period == ALL], writes)
    _upsert(PlayerStat, writes, ("player", "ruleset", "period"), (*STAT_FIELDS, "body"))


def _bodies_render(rows: Sequence[PlayerStat], fresh: Sequence[PlayerStat] = ()) -> None:
    """Render the answer of each all-time row in ``rows`` from it and its months.

    The months are read from the table, where ``fresh`` (rows about to be written) take
    precedence; a month whose row was deleted is gone from the table already.
    """
    if not rows:
        return
    months: dict[tuple[int, str], dict[str, dict[str, Any]]] = defaultdict(dict)
    for values in (
        PlayerStat.objects.filter(
            player_id__in={r.player_id for r in rows}, ruleset__in={r.ruleset for r in rows}
        )
        .exclude(period=ALL)
        .values("player_id", "ruleset", "period", *STAT_COLUMNS)
    ):
        months[values["player_id"], values["ruleset"]][values["period"]] = values
    for row in fresh:
        if row.period != ALL:
            values = {name: getattr(row, name) for name in ("period", *STAT_COLUMNS)}
            months[row.player_id, row.ruleset][row.period] = values
    for row in rows:
        mine = months.get((row.player_id, row.ruleset), {})
        row.body = selectors.stats_body(
            player_id=row.player_id,
            ruleset=row.ruleset,
            counters=_row_counters(row),
            best_total=row.best_total,
            percentiles=row.percentiles,
            months=[mine[period] for period in sorted(mine)],
        )


def _lowest_wins(ruleset: str) -> bool:
    """Whether the lowest total is the best in the games of a ruleset key: the rummy's. Over
    every key, whose totals are on different scales, the highest stands, unread by the
    figures (``selectors.stats_figures``)."""
    return ruleset != ALL and PRESET_FAMILIES.get(ruleset) is Family.RUMMY


def _best(ruleset: str, *totals: Decimal) -> Decimal:
    return min(totals) if _lowest_wins(ruleset) else max(totals)


def _best_total(player_id: int, ruleset: str, period: str) -> Decimal | None:
    """The best total over the facts (after they were written) of one aggregate row."""
    facts = SeatFact.objects.filter(player_id=player_id)
    if ruleset != ALL:
        facts = facts.filter(ruleset=ruleset)
    if period != ALL:
        facts = facts.filter(month=period)
    pick = Min if _lowest_wins(ruleset) else Max
    best: Decimal | None = facts.aggregate(best=pick("total"))["best"]
    return best


PAIR_FIELDS = ("games", "a_ahead", "b_ahead", "ties", "difference")


def _pairs_apply(deltas: dict[PairKey, dict[str, int]]) -> None:
    """Add the deltas to the head-to-head rows in the database, without reading them first.

    A row that reaches no games is deleted; that can only happen when a game was taken away.
    """
    keys = [key for key in sorted(deltas) if deltas[key]]
    if not keys:
        return
    now = timezone.now()
    rows = [(*key, *(deltas[key].get(name, 0) for name in PAIR_FIELDS), 1, now) for key in keys]
    bulk_upsert(
        HeadToHead,
        ("player_a_id", "player_b_id", "ruleset", *PAIR_FIELDS, "version", "updated_at"),
        rows,
        unique=("player_a", "player_b", "ruleset"),
        replace=("updated_at",),
        increment=(*PAIR_FIELDS, "version"),
    )
    emptied = [key for key in keys if deltas[key].get("games", 0) <= 0]
    if emptied:
        HeadToHead.objects.filter(
            games=0,
            player_a_id__in={k[0] for k in emptied},
            player_b_id__in={k[1] for k in emptied},
        ).delete()


# -- ratings --------------------------------------------------------------------------------


@dataclass(slots=True)
class _State:
    mu: float
    sigma: float
    games: int
    when: dt.datetime | None


def _after(start: Start) -> Q:
    """From ``start`` on in played order; the leading ``when >=`` lets an index range scan."""
    when, game_id = start
    return Q(when__gte=when) & (Q(when__gt=when) | Q(game_id__gte=game_id))


def ratings_replay(*, ruleset: str, start: Start | None) -> int:
    """Rate the games of ``ruleset`` from ``start`` on (None: all) in played order.

    The entries from ``start`` on are dropped and made again; each player starts from their
    latest entry before ``start`` (the default rating if none). Returns the games rated.
    """
    stale = RatingEntry.objects.filter(ruleset=ruleset)
    games_from = GameFact.objects.filter(ruleset=ruleset, vouched=True)
    if start is not None:
        stale = stale.filter(_after(start))
        games_from = games_from.filter(_after(start))
    stale_players = set(stale.values_list("player_id", flat=True).distinct())
    if stale_players:
        stale.delete()
    games = list(games_from.order_by("when", "game_id").values_list("game_id", "when", "seats"))
    players = {p for _, _, seats in games for p, _ in seats} | stale_players
    stored = {r.player_id: r for r in Rating.objects.filter(ruleset=ruleset, player_id__in=players)}
    states = _states_before(ruleset, start, stored, stale_players)
    # Tuples in RATING_ENTRY_FIELDS order rather than model instances: one per seat.
    entries: list[tuple[Any, ...]] = []
    for game_id, when, seats in games:
        teams = []
        for player, _ in seats:
            state = states.get(player)
            if state is None:
                teams.append([MODEL.rating()])
            else:
                teams.append([MODEL.rating(mu=state.mu, sigma=state.sigma)])
        rated = MODEL.rate(teams, ranks=[place for _, place in seats])
        for (player, _), (rating,) in zip(seats, rated, strict=True):
            before = states.get(player)
            state = _State(rating.mu, rating.sigma, 1 + (before.games if before else 0), when)
            states[player] = state
            ordinal = _ordinal(state.mu, state.sigma)
            entries.append(
                (player, ruleset, game_id, when, state.mu, state.sigma, ordinal, state.games)
            )
        if len(entries) >= 5000:
            bulk_insert(RatingEntry, RATING_ENTRY_FIELDS, entries)
            entries = []
    bulk_insert(RatingEntry, RATING_ENTRY_FIELDS, entries)
    _ratings_store(ruleset, players, states, stored)
    return len(games)


def _ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def _states_before(
    ruleset: str, start: Start | None, stored: dict[int, Rating], stale: set[int]
) -> dict[int, _State]:
    """Each player's rating just before ``start``.

    A player without entries from ``start`` on is exactly their stored ``Rating``; only the
    players whose later entries were dropped need a look back into their history.
    """
    if start is None:
        return {}
    states = {
        player: _State(r.mu, r.sigma, r.games, r.last_played)
        for player, r in stored.items()
        if player not in stale
    }
    for player in stale:
        entry = (
            RatingEntry.objects.filter(player_id=player, ruleset=ruleset)
            .exclude(_after(start))
            .order_by("-when", "-game_id")
            .first()
        )
        if entry is not None:
            states[player] = _State(entry.mu, entry.sigma, entry.games, entry.when)
    return states


RATING_FIELDS = ("mu", "sigma", "ordinal", "games", "last_played", "version", "updated_at")


def _ratings_store(
    ruleset: str, players: set[int], states: dict[int, _State], rows: dict[int, Rating]
) -> None:
    writes: list[Rating] = []
    deletes = []
    for player in sorted(players):
        state = states.get(player)
        row = rows.get(player)
        if state is None or state.when is None:
            if row is not None:
                deletes.append(row.pk)
            continue
        values = {
            "mu": state.mu,
            "sigma": state.sigma,
            "ordinal": _ordinal(state.mu, state.sigma),
            "games": state.games,
            "last_played": state.when,
        }
        if row is not None and all(getattr(row, k) == v for k, v in values.items()):
            continue
        version = 1 if row is None else row.version + 1
        writes.append(Rating(player_id=player, ruleset=ruleset, version=version, **values))
    if deletes:
        Rating.objects.filter(pk__in=deletes).delete()
    _upsert(Rating, writes, ("player", "ruleset"), RATING_FIELDS)


# -- the full recompute ---------------------------------------------------------------------


@transaction.atomic
def stats_recompute() -> RecomputeSummary:
    """Rebuild every statistic and rating from the games, from scratch."""
    lock = _lock()
    for model in (GameFact, SeatFact, PlayerStat, HeadToHead, Rating, RatingEntry):
        model.objects.all().delete()
    stats: dict[StatKey, dict[str, int]] = defaultdict(dict)
    best: dict[StatKey, Decimal] = {}
    pair_sums: dict[PairKey, dict[str, int]] = defaultdict(dict)
    candidates = (
        Game.objects.filter(
            visibility=Visibility.PUBLIC,
            status__in=[GameStatus.VERIFIED, GameStatus.RESOLVED, GameStatus.DISPUTED],
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    ids = list(candidates)
    games = seats = 0
    for i in range(0, len(ids), CHUNK):
        built = _facts_build(ids[i : i + CHUNK])
        facts = [fact for fact, _ in built.values()]
        seat_facts = [f for _, chunk in built.values() for f in chunk]
        _copy(GameFact, facts, GAME_FACT_FIELDS)
        _copy(SeatFact, seat_facts, SEAT_FACT_FIELDS)
        games += len(facts)
        seats += len(seat_facts)
        for f in seat_facts:
            for key in _stat_keys(f):
                add(stats[key], f.counters)
                if key not in best or _best(key[1], f.total, best[key]) != best[key]:
                    best[key] = f.total
        for _, chunk in built.values():
            for pair, counters in _pair_results(chunk):
                add(pair_sums[pair], counters)
    now = timezone.now()
    rows = []
    for key in sorted(stats):
        row = PlayerStat(
            player_id=key[0], ruleset=key[1], period=key[2], best_total=best[key], updated_at=now
        )
        _row_set(row, stats[key])
        rows.append(row)
    _bodies_render([r for r in rows if r.period == ALL], rows)
    _copy(PlayerStat, rows, ("player_id", "ruleset", "period", *STAT_FIELDS, "percentiles", "body"))
    pair_rows = [
        HeadToHead(player_a_id=a, player_b_id=b, ruleset=r, updated_at=now, **counters)
        for (a, b, r), counters in sorted(pair_sums.items())
    ]
    _copy(
        HeadToHead,
        pair_rows,
        ("player_a_id", "player_b_id", "ruleset", *PAIR_FIELDS, "version", "updated_at"),
    )
    rated = 0
    for ruleset in GameFact.objects.values_list("ruleset", flat=True).distinct().order_by():
        rated += ratings_replay(ruleset=ruleset, start=None)
    lock.recomputed_at = timezone.now()
    lock.save(update_fields=["recomputed_at"])
    percentiles_update()
    return RecomputeSummary(games=games, seats=seats, ratings=rated)


# -- periodic work ----------------------------------------------------------------------------


def _percentile(value: float, ordered: list[float]) -> float:
    """Mid-rank percentile: the share of players below, counting ties as half below, as a
    fraction from 0 to 1 as every rate is."""
    below = bisect_left(ordered, value)
    equal = bisect_right(ordered, value) - below
    return round((below + equal / 2) / len(ordered), 3)


def _figures(row: PlayerStat, rating: float | None) -> dict[str, float]:
    figures = {"win_rate": row.wins / row.games}
    if row.ruleset != ALL:
        figures["average_total"] = row.total / row.games
        if rating is not None:
            figures["rating"] = rating
    if row.bids:
        figures["exact_rate"] = row.exact / row.bids
    if row.deals:
        figures["points_per_deal"] = row.points / row.deals
    return figures


@transaction.atomic
def percentiles_update() -> int:
    """Percentiles of every all-time row among the players past the games gate.

    Each figure (win rate, exact-bid rate, points per deal; in a ruleset also the average
    total and the rating's ordinal) is ranked among the gated players of the same ruleset key
    (``ALL`` for overall). Rows below the gate get none. Returns the rows changed.
    """
    _lock()
    gate = max(1, settings.RASPIS_LEADERBOARD_MIN_GAMES)
    ratings = {
        (p, r): o for p, r, o in Rating.objects.values_list("player_id", "ruleset", "ordinal")
    }
    rows = list(PlayerStat.objects.filter(period=ALL).defer("body"))
    figures: dict[int, dict[str, float]] = {}
    by_ruleset: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        if row.games >= gate:
            mine = _figures(row, ratings.get((row.player_id, row.ruleset)))
            figures[row.pk] = mine
            for name, value in mine.items():
                by_ruleset[row.ruleset][name].append(value)
    for columns in by_ruleset.values():
        for values in columns.values():
            values.sort()
    changed = []
    for row in rows:
        mine = figures.get(row.pk, {})
        columns = by_ruleset.get(row.ruleset, {})
        new = {name: _percentile(value, columns[name]) for name, value in sorted(mine.items())}
        if new != row.percentiles:
            row.percentiles = new
            row.version += 1
            row.pk = None  # written back by its unique key
            changed.append(row)
    _bodies_render(changed)
    _upsert(
        PlayerStat,
        changed,
        ("player", "ruleset", "period"),
        ("percentiles", "body", "version", "updated_at"),
    )
    return len(changed)


@transaction.atomic
def leaderboard_snapshot_create(*, date: dt.date | None = None) -> int:
    """Store today's gated leaderboard of every ruleset key; returns the rulesets stored."""
    date = date or timezone.localdate()
    gates = selectors.leaderboard_gates()
    rulesets = list(Rating.objects.values_list("ruleset", flat=True).distinct().order_by())
    for ruleset in rulesets:
        entries = selectors.leaderboard_rows(ruleset=ruleset, gates=gates, limit=None)
        LeaderboardSnapshot.objects.update_or_create(
            ruleset=ruleset,
            date=date,
            defaults={"gates": gates.as_dict(), "entries": entries},
        )
    return len(rulesets)
