"""Reads of statistics, ratings and leaderboards, served from the precomputed rows.

Each read is one query (two where it says so) that returns the rows it needs, plus a
``Freshness`` (an ETag and a Last-Modified date built from the rows' ``version`` and
``updated_at``) so that the API can answer 304 before deriving anything. Rates and averages
are derived here from the summed counters (``stats.contributions`` names them); a rate with
nothing to count is ``None``. Only counted public games are in the rows, so nothing here
needs to know about visibility.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import connection, models
from django.db.models import QuerySet
from django.utils import timezone
from openskill.models import PlackettLuce

from replay.poker.hands import Category
from stats.contributions import SCALE, add
from stats.models import (
    ALL,
    STAT_COLUMNS,
    GameFact,
    HeadToHead,
    LeaderboardSnapshot,
    PlayerStat,
    Rating,
    SeatFact,
)

#: Part of every ETag: change it when the shape or the derivation of an answer changes.
FIGURES_VERSION = "3"
KINDS = ("regular", "no_trump", "dark", "misere", "golden", "forehead")
DECLARATIONS = ("high", "low", "plain", "lead_highest", "lead_lowest", "other")
#: The poker's categories, best first, as the figures list them.
CATEGORY_ORDER = {str(category): -category.value for category in Category}


@dataclass(frozen=True, slots=True)
class Freshness:
    etag: str
    last_modified: dt.datetime | None


def freshness(parts: Iterable[Any], stamps: Iterable[dt.datetime | None]) -> Freshness:
    """A strong ETag from ``parts`` (row ids and versions, parameters) and the latest stamp."""
    digest = hashlib.blake2b(repr((FIGURES_VERSION, *parts)).encode(), digest_size=12)
    latest = max((s for s in stamps if s is not None), default=None)
    return Freshness(f'"{digest.hexdigest()}"', latest)


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _points(value: int) -> int | float:
    """Points kept in 1/SCALE units, as a JSON number: 5, or 7.5."""
    whole, rest = divmod(value, SCALE)
    return whole if not rest else value / SCALE


def _average(points: int, count: int) -> float | None:
    return round(points / SCALE / count, 4) if count else None


def _number(value: Decimal | None) -> int | float | None:
    if value is None:
        return None
    return int(value) if value == value.to_integral_value() else float(value)


def stats_figures(
    counters: Mapping[str, int], best_total: Decimal | None, *, totals: bool = True
) -> dict[str, Any]:
    """Every figure of a player's statistics from summed counters; without ``totals`` (over
    every ruleset key, whose totals are on different scales) no average or best total."""
    c = counters.get
    games = c("games", 0)
    bids = c("bids", 0)
    deals = c("deals", 0)
    # One pass over the names, which run to a hundred or more: a pass per prefix took half
    # of the rendering of a row's answer, which every statistics update does per player.
    kinds: dict[str, dict[str, int]] = {}
    cards: dict[str, dict[str, int]] = {}
    places, diffs, findings = [], [], []
    for name, value in counters.items():
        head, colon, rest = name.partition(":")
        if not colon:
            continue
        if head == "kind" or head == "cards":
            key, _, field = rest.rpartition(":")
            (kinds if head == "kind" else cards).setdefault(key, {})[field] = value
        elif head == "place":
            places.append((int(rest), value))
        elif head == "diff":
            diffs.append((int(rest), value))
        elif head == "finding":
            findings.append((rest, value))
    places.sort()
    diffs.sort()
    findings.sort()
    return {
        "games": games,
        "wins": c("wins", 0),
        "shared_wins": c("shared_wins", 0),
        "win_rate": _rate(c("wins", 0), games),
        "places": [{"place": p, "games": n} for p, n in places],
        "average_total": _average(c("total", 0), games) if totals else None,
        "best_total": _number(best_total) if totals else None,
        "settlement": {"games": c("settled", 0), "balance": _points(c("balance", 0))},
        "bidding": {
            "deals": bids,
            "exact": c("exact", 0),
            "over": c("over", 0),
            "under": c("under", 0),
            "exact_rate": _rate(c("exact", 0), bids),
            "over_rate": _rate(c("over", 0), bids),
            "under_rate": _rate(c("under", 0), bids),
            "passes": {"tried": c("passes", 0), "made": c("passes_made", 0)},
            "blind": {"tried": c("blind", 0), "made": c("blind_made", 0)},
            "hook": {"deals": c("hook", 0), "made": c("hook_made", 0)},
            "difference": [{"difference": d, "deals": n} for d, n in diffs],
            "by_cards": [
                {
                    "cards": int(k),
                    "deals": v.get("bids", 0),
                    "exact": v.get("exact", 0),
                    "exact_rate": _rate(v.get("exact", 0), v.get("bids", 0)),
                }
                for k, v in sorted(cards.items(), key=lambda kv: int(kv[0]))
            ],
            "by_kind": [
                {
                    "kind": kind,
                    "deals": kinds[kind].get("bids", 0),
                    "exact": kinds[kind].get("exact", 0),
                    "exact_rate": _rate(kinds[kind].get("exact", 0), kinds[kind].get("bids", 0)),
                }
                for kind in KINDS
                if kinds.get(kind, {}).get("bids")
            ],
        },
        "points": {
            "deals": deals,
            "points": _points(c("points", 0)),
            "per_deal": _average(c("points", 0), deals),
            "from_made_bids": _points(c("points_made", 0)),
            "made_bids_share": _rate(c("points_made", 0), c("points_won", 0)),
            "by_kind": [
                {
                    "kind": kind,
                    "deals": kinds[kind].get("deals", 0),
                    "points": _points(kinds[kind].get("points", 0)),
                    "per_deal": _average(kinds[kind].get("points", 0), kinds[kind]["deals"]),
                }
                for kind in KINDS
                if kinds.get(kind, {}).get("deals")
            ],
        },
        "jokers": {
            "deals_held": c("joker_deals", 0),
            "held": c("jokers", 0),
            "declarations": {d: c(f"joker:{d}", 0) for d in DECLARATIONS},
            "demands": c("joker:lead_highest", 0) + c("joker:lead_lowest", 0),
            "tricks_won": c("joker_wins", 0),
        },
        "findings": [
            {"code": code, "count": n, "per_game": _rate(n, games)} for code, n in findings
        ],
        "rummy": _rummy_figures(counters),
        "poker": _poker_figures(counters),
    }


def _rummy_figures(counters: Mapping[str, int]) -> dict[str, Any] | None:
    """The rummy's figures (``contributions``' ``rummy:`` counters), None without a deal."""
    c = counters.get
    deals = c("rummy:deals", 0)
    if not deals:
        return None
    outs, full_outs, openings = c("rummy:outs", 0), c("rummy:full_outs", 0), c("rummy:openings", 0)
    return {
        "deals": deals,
        "points": _points(c("rummy:points", 0)),
        "per_deal": _average(c("rummy:points", 0), deals),
        "outs": outs,
        "out_rate": _rate(outs, deals),
        "out_round": None if not full_outs else c("rummy:out_rounds", 0) / full_outs,
        "out_on_jokers": c("rummy:out_jokers", 0),
        "openings": openings,
        "opening_rate": _rate(openings, c("rummy:full", 0)),
        "opening_round": None if not openings else c("rummy:opening_rounds", 0) / openings,
        "opening_worth": None if not openings else c("rummy:opening_worth", 0) / openings,
        "left_points": _points(c("rummy:left:points", 0)),
        "left_per_deal": _average(c("rummy:left:points", 0), c("rummy:left_deals", 0)),
    }


def _poker_figures(counters: Mapping[str, int]) -> dict[str, Any] | None:
    """The poker's figures (``contributions``' ``poker:`` counters), None without a hand."""
    c = counters.get
    hands = c("poker:hands", 0)
    if not hands:
        return None
    categories, folds = [], []
    for name, value in counters.items():
        if name.startswith("poker:category:"):
            categories.append({"category": name.removeprefix("poker:category:"), "hands": value})
        elif name.startswith("poker:fold:"):
            folds.append({"stage": int(name.removeprefix("poker:fold:")), "hands": value})
    showdowns = c("poker:showdowns", 0)
    return {
        "hands": hands,
        "won": c("poker:won", 0),
        "win_rate": _rate(c("poker:won", 0), hands),
        "net": c("poker:net", 0),
        "net_per_hand": c("poker:net", 0) / hands,
        "showdowns": showdowns,
        "showdowns_won": c("poker:showdowns_won", 0),
        "showdown_win_rate": _rate(c("poker:showdowns_won", 0), showdowns),
        "by_category": sorted(categories, key=lambda e: CATEGORY_ORDER.get(e["category"], 99)),
        "folds": sorted(folds, key=lambda e: e["stage"]),
    }


def _row_counters(row: Mapping[str, Any]) -> dict[str, int]:
    counters = dict(row["c"] or {})
    for name in STAT_COLUMNS:
        if row[name]:
            counters[name] = row[name]
    return counters


def _trend(row: Mapping[str, Any], *, totals: bool) -> dict[str, Any]:
    games, bids, deals = row["games"], row["bids"], row["deals"]
    return {
        "month": row["period"],
        "games": games,
        "wins": row["wins"],
        "win_rate": _rate(row["wins"], games),
        "average_total": _average(row["total"], games) if totals else None,
        "exact_rate": _rate(row["exact"], bids),
        "points_per_deal": _average(row["points"], deals),
    }


# -- players -------------------------------------------------------------------------------


def player_list(*, search: str = "") -> QuerySet[PlayerStat]:
    """Players with at least one counted game: their all-time rows, by name."""
    rows = (
        PlayerStat.objects.filter(ruleset=ALL, period=ALL)
        .select_related("player")
        .only("player_id", "player__name", "games", "wins", "version", "updated_at")
    )
    if search.strip():
        rows = rows.filter(player__name__icontains=search.strip())
    return rows.order_by("player__name", "player_id")


def players_listed(*, player_ids: Iterable[int | None]) -> set[int]:
    """Those of the players that have a page: a counted public game (``player_list``)."""
    ids = {i for i in player_ids if i is not None}
    if not ids:
        return set()
    rows = PlayerStat.objects.filter(player_id__in=ids, ruleset=ALL, period=ALL)
    return set(rows.values_list("player_id", flat=True))


def player_list_freshness(rows: Sequence[PlayerStat], *, count: int, key: str) -> Freshness:
    return freshness((count, key, [(r.pk, r.version) for r in rows]), (r.updated_at for r in rows))


@dataclass(slots=True)
class PlayerDetail:
    rows: Sequence[Mapping[str, Any]]
    ratings: Sequence[Mapping[str, Any]]
    fresh: Freshness


def player_detail(*, player_id: int) -> PlayerDetail | None:
    """The player's all-time rows per ruleset key and their ratings: two queries."""
    rows = list(
        PlayerStat.objects.filter(player_id=player_id, period=ALL)
        .order_by("ruleset")
        .values(
            "pk",
            "ruleset",
            "version",
            "updated_at",
            "best_total",
            "percentiles",
            "player__name",
            "player__merged_into_id",
            *STAT_COLUMNS,
        )
    )
    if not rows:
        return None
    ratings = list(
        Rating.objects.filter(player_id=player_id)
        .order_by("ruleset")
        .values("pk", "ruleset", "mu", "sigma", "ordinal", "games", "last_played", "version")
    )
    fresh = freshness(
        (player_id, [(r["pk"], r["version"]) for r in [*rows, *ratings]]),
        (r["updated_at"] for r in rows),
    )
    return PlayerDetail(rows, ratings, fresh)


def player_detail_data(*, player_id: int, detail: PlayerDetail) -> dict[str, Any]:
    ratings = {r["ruleset"]: r for r in detail.ratings}
    overall = next((r for r in detail.rows if r["ruleset"] == ALL), detail.rows[0])
    rulesets = []
    for row in detail.rows:
        if row["ruleset"] == ALL:
            continue
        rating = ratings.get(row["ruleset"])
        rulesets.append(
            {
                "ruleset": row["ruleset"],
                "games": row["games"],
                "wins": row["wins"],
                "win_rate": _rate(row["wins"], row["games"]),
                "average_total": _average(row["total"], row["games"]),
                "best_total": _number(row["best_total"]),
                "rating": None if rating is None else _rating(rating),
                "percentiles": row["percentiles"],
            }
        )
    return {
        "id": player_id,
        "name": overall["player__name"],
        "merged_into": overall["player__merged_into_id"],
        "games": overall["games"],
        "wins": overall["wins"],
        "win_rate": _rate(overall["wins"], overall["games"]),
        # Over every ruleset key: totals of different rulesets are on different scales.
        "average_total": None,
        "best_total": None,
        "percentiles": overall["percentiles"],
        "rulesets": rulesets,
    }


def _skill(value: float) -> float:
    """A rating figure (μ, σ, ordinal) as answers give it: to 3 places, finer than any
    game moves it, while the rows keep every bit for the next update."""
    return round(value, 3)


def _rating(r: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "mu": _skill(r["mu"]),
        "sigma": _skill(r["sigma"]),
        "ordinal": _skill(r["ordinal"]),
        "games": r["games"],
        "last_played": r["last_played"],
    }


# -- statistics ----------------------------------------------------------------------------


@dataclass(slots=True)
class StatRows:
    rows: list[dict[str, Any]]
    fresh: Freshness


_STAT_COLUMNS_SQL = ", ".join(STAT_COLUMNS)


def _fetched(
    model: type[models.Model], fields: Sequence[str], sql: str, params: Sequence[Any]
) -> list[list[Any]]:
    """The rows of a fixed statement whose columns are ``model``'s ``fields``, each value
    converted as the ORM converts it on this database (the backend's converters, then the
    field's, as Django's compiler applies them).

    ``Manager.raw`` does as much, but builds a model instance per row, which took half as
    long again as the query for a player's months."""
    meta = model._meta
    columns = []
    for name in fields:
        field = meta.get_field(name)
        assert isinstance(field, models.Field)
        columns.append(field.get_col(meta.db_table))
    converters = [
        (i, column, converts)
        for i, column in enumerate(columns)
        if (
            converts := [
                *connection.ops.get_db_converters(column),
                *column.get_db_converters(connection),
            ]
        )
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = [list(row) for row in cursor.fetchall()]
    for row in rows:
        for i, column, converts in converters:
            value = row[i]
            for convert in converts:
                value = convert(value, column, connection)
            row[i] = value
    return rows


def player_stat_rows(
    *, player_id: int, ruleset: str = ALL, since: str = "", until: str = ""
) -> StatRows:
    """One query: the rows behind ``player_stats_data``, all time first.

    Always the all-time row (its version and time validate the answer, since every change
    to a month of the player also changes it) and the months in range (all without one).
    Counters are read only where they are summed: the all-time row without a range, the
    months with one; the other rows give their columns, for the trend. A fixed statement
    rather than an ORM query: compiling that query took longer than running it.
    """
    ranged = bool(since or until)
    where = ["player_id = %s", "ruleset = %s"]
    params: list[Any] = [player_id, ruleset]
    if since:
        where.append("(period = '' OR period >= %s)")
        params.append(since)
    if until:
        where.append("(period = '' OR period <= %s)")
        params.append(until)
    summed = "period <> ''" if ranged else "period = ''"
    sql = (
        f"SELECT id, period, version, best_total, {_STAT_COLUMNS_SQL}, "
        f"CASE WHEN {summed} THEN counters END, "
        "CASE WHEN period = '' THEN percentiles END, "
        "CASE WHEN period = '' THEN updated_at END "
        f"FROM {PlayerStat._meta.db_table} WHERE {' AND '.join(where)} ORDER BY period"
    )
    fields = ("id", "period", "version", "best_total", *STAT_COLUMNS, "counters", "percentiles")
    names = ("pk", "period", "version", "best_total", *STAT_COLUMNS, "c", "percentiles")
    values = []
    updated = None
    for row in _fetched(PlayerStat, (*fields, "updated_at"), sql, params):
        value = dict(zip(names, row, strict=False))
        value["percentiles"] = value["percentiles"] or {}
        if row[-1] is not None:
            updated = row[-1]
        values.append(value)
    fresh = freshness(
        (player_id, ruleset, since, until, [(r["pk"], r["version"]) for r in values]), [updated]
    )
    return StatRows(values, fresh)


def player_known(*, player_id: int) -> bool:
    """Whether the player has a counted game, i.e. public statistics."""
    return PlayerStat.objects.filter(player_id=player_id, ruleset=ALL, period=ALL).exists()


def player_stats_data(
    *, player_id: int, ruleset: str, since: str, until: str, rows: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The answer of ``GET /api/players/{id}/stats/`` from ``player_stat_rows``."""
    counters: dict[str, int] = {}
    best: Decimal | None = None
    percentiles: dict[str, float] = {}
    months = []
    ranged = bool(since or until)
    for row in rows:
        if row["period"] == ALL:
            if not ranged:
                counters = _row_counters(row)
                best = row["best_total"]
                percentiles = row["percentiles"]
            continue
        months.append(row)
        if ranged:
            add(counters, _row_counters(row))
            if row["best_total"] is not None and (best is None or row["best_total"] > best):
                best = row["best_total"]
    return _stats_answer(player_id, ruleset, since, until, counters, best, percentiles, months)


def _stats_answer(
    player_id: int,
    ruleset: str,
    since: str,
    until: str,
    counters: Mapping[str, int],
    best: Decimal | None,
    percentiles: Mapping[str, float],
    months: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    return {
        "player": player_id,
        "ruleset": ruleset or None,
        "since": since or None,
        "until": until or None,
        **stats_figures(counters, best, totals=ruleset != ALL),
        "percentiles": percentiles,
        "months": [_trend(m, totals=ruleset != ALL) for m in months],
    }


def stats_body(
    *,
    player_id: int,
    ruleset: str,
    counters: Mapping[str, int],
    best_total: Decimal | None,
    percentiles: Mapping[str, float],
    months: Sequence[Mapping[str, Any]],
) -> str:
    """The answer without a range as JSON text (as DRF renders it), stored on the row."""
    answer = _stats_answer(player_id, ruleset, "", "", counters, best_total, percentiles, months)
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":"))


@dataclass(slots=True)
class StatBody:
    body: str
    fresh: Freshness


def player_stats_body(*, player_id: int, ruleset: str = ALL) -> StatBody | None:
    """One query for the common read: the all-time row's rendered answer; None if none."""
    rows = _fetched(
        PlayerStat,
        ("id", "version", "updated_at", "body"),
        f"SELECT id, version, updated_at, body FROM {PlayerStat._meta.db_table} "
        "WHERE player_id = %s AND ruleset = %s AND period = ''",
        [player_id, ruleset],
    )
    if not rows or not rows[0][3]:
        return None
    pk, version, updated_at, body = rows[0]
    fresh = freshness((player_id, ruleset, "", "", [(pk, version)]), [updated_at])
    return StatBody(body, fresh)


#: The columns of a player's statistics in an export: a line per ruleset key, overall first.
EXPORT_COLUMNS = (
    "ruleset",
    "games",
    "wins",
    "shared_wins",
    "win_rate",
    "average_total",
    "best_total",
    "bids",
    "exact_rate",
    "over_rate",
    "under_rate",
    "deals",
    "points_per_deal",
    "balance",
    "mu",
    "sigma",
    "ordinal",
)


def player_export_rows(*, player_id: int) -> list[dict[str, Any]]:
    """The key figures of each of the player's ruleset keys, all time, overall first (its
    ``ruleset`` is empty): two queries. Empty when the player has no counted game."""
    rows = (
        PlayerStat.objects.filter(player_id=player_id, period=ALL)
        .order_by("ruleset")
        .values("ruleset", "best_total", "counters", *STAT_COLUMNS)
    )
    ratings = {r["ruleset"]: r for r in player_rating_rows(player_id=player_id)}
    out = []
    for row in rows:
        figures = stats_figures(
            _row_counters({**row, "c": row["counters"]}),
            row["best_total"],
            totals=row["ruleset"] != ALL,
        )
        rating = ratings.get(row["ruleset"])
        out.append(
            {
                "ruleset": row["ruleset"],
                **{k: figures[k] for k in ("games", "wins", "shared_wins", "win_rate")},
                "average_total": figures["average_total"],
                "best_total": figures["best_total"],
                "bids": figures["bidding"]["deals"],
                **{k: figures["bidding"][k] for k in ("exact_rate", "over_rate", "under_rate")},
                "deals": figures["points"]["deals"],
                "points_per_deal": figures["points"]["per_deal"],
                "balance": figures["settlement"]["balance"],
                **({} if rating is None else {k: _rating(rating)[k] for k in SKILL}),
            }
        )
    return out


SKILL = ("mu", "sigma", "ordinal")


# -- ratings -------------------------------------------------------------------------------


def player_rating_rows(*, player_id: int, ruleset: str = "") -> list[Mapping[str, Any]]:
    rows = Rating.objects.filter(player_id=player_id)
    if ruleset:
        rows = rows.filter(ruleset=ruleset)
    return list(
        rows.order_by("ruleset").values(
            "pk",
            "ruleset",
            "mu",
            "sigma",
            "ordinal",
            "games",
            "last_played",
            "version",
            "updated_at",
        )
    )


def player_ratings_data(
    *, player_id: int, ratings: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The ratings with their history (the second query), oldest game first."""
    from stats.models import RatingEntry

    history: dict[str, list[dict[str, Any]]] = {r["ruleset"]: [] for r in ratings}
    entries = (
        RatingEntry.objects.filter(player_id=player_id, ruleset__in=list(history))
        .order_by("ruleset", "when", "game_id")
        .values_list("ruleset", "game_id", "when", "mu", "sigma", "ordinal", "games")
    )
    for ruleset, game, when, mu, sigma, ordinal, games in entries:
        history[ruleset].append(
            {
                "game": game,
                "played_at": when,
                "mu": _skill(mu),
                "sigma": _skill(sigma),
                "ordinal": _skill(ordinal),
                "games": games,
            }
        )
    return [
        {"ruleset": r["ruleset"], **_rating(r), "history": history[r["ruleset"]]} for r in ratings
    ]


def player_recent_games(
    *, player_id: int, history: Sequence[Mapping[str, Any]], limit: int = 10
) -> list[dict[str, Any]]:
    """The player's latest counted games, latest first, from their ratings' history
    (``player_ratings_data``: every counted game is rated) and one query for the seats.

    Each with its ruleset key, place, total, table size and the rating's ordinal change.
    """
    games: list[dict[str, Any]] = []
    for rating in history:
        before: float | None = None
        for entry in rating["history"]:
            change = None if before is None else entry["ordinal"] - before
            before = entry["ordinal"]
            games.append(
                {
                    "game": entry["game"],
                    "ruleset": rating["ruleset"],
                    "played_at": entry["played_at"],
                    "ordinal": entry["ordinal"],
                    "change": change,
                }
            )
    games.sort(key=lambda g: (g["played_at"], g["game"]), reverse=True)
    games = games[:limit]
    seats = {
        game: (total, place, winner)
        for game, total, place, winner in SeatFact.objects.filter(
            player_id=player_id, game_id__in=[g["game"] for g in games]
        ).values_list("game_id", "total", "place", "winner")
    }
    sizes = dict(GameFact.objects.filter(game_id__in=list(seats)).values_list("game_id", "seats"))
    for g in games:
        total, place, winner = seats.get(g["game"], (None, None, False))
        g.update(total=_number(total), place=place, winner=winner)
        g["players"] = len(sizes.get(g["game"], ()))
    return games


# -- head to head --------------------------------------------------------------------------


def versus_rows(*, a: int, b: int) -> list[Mapping[str, Any]]:
    """The two players' head-to-head rows (one query), with both names."""
    low, high = min(a, b), max(a, b)
    return list(
        HeadToHead.objects.filter(player_a_id=low, player_b_id=high)
        .order_by("ruleset")
        .values(
            "pk",
            "ruleset",
            "games",
            "a_ahead",
            "b_ahead",
            "ties",
            "difference",
            "version",
            "updated_at",
            "player_a__name",
            "player_b__name",
        )
    )


def versus_data(*, a: int, b: int, rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Oriented from ``a``'s side: ``ahead`` is how often ``a`` finished above ``b``."""
    flip = a > b

    def side(row: Mapping[str, Any]) -> dict[str, Any]:
        ahead, behind = row["a_ahead"], row["b_ahead"]
        difference = row["difference"]
        if flip:
            ahead, behind, difference = behind, ahead, -difference
        return {
            "games": row["games"],
            "ahead": ahead,
            "behind": behind,
            "ties": row["ties"],
            "ahead_rate": _rate(ahead, row["games"]),
            "difference": _points(difference),
            "average_difference": _average(difference, row["games"]),
        }

    overall = next((r for r in rows if r["ruleset"] == ALL), None)
    names = (None, None)
    if rows:
        first = rows[0]
        names = (first["player_a__name"], first["player_b__name"])
        if flip:
            names = names[::-1]
    empty = {"a_ahead": 0, "b_ahead": 0, "ties": 0, "difference": 0, "games": 0}
    return {
        "player": {"id": a, "name": names[0]},
        "opponent": {"id": b, "name": names[1]},
        **side(overall or empty),
        "by_ruleset": [{"ruleset": r["ruleset"], **side(r)} for r in rows if r["ruleset"] != ALL],
    }


def player_opponents(*, player_id: int, limit: int = 12) -> list[dict[str, Any]]:
    """The players most often at the player's table (all rulesets), from their side."""
    rows = (
        HeadToHead.objects.filter(ruleset=ALL)
        .filter(models.Q(player_a_id=player_id) | models.Q(player_b_id=player_id))
        .order_by("-games", "player_a_id", "player_b_id")
        .values_list(
            "player_a_id",
            "player_b_id",
            "player_a__name",
            "player_b__name",
            "games",
            "a_ahead",
            "b_ahead",
            "ties",
        )[:limit]
    )
    opponents = []
    for a, b, name_a, name_b, games, a_ahead, b_ahead, ties in rows:
        mine = a == player_id
        opponents.append(
            {
                "id": b if mine else a,
                "name": name_b if mine else name_a,
                "games": games,
                "ahead": a_ahead if mine else b_ahead,
                "behind": b_ahead if mine else a_ahead,
                "ties": ties,
            }
        )
    return opponents


def versus_games(*, a: int, b: int, limit: int = 20) -> list[dict[str, Any]]:
    """The latest counted games where ``a`` and ``b`` sat at one table, latest first, with
    each one's total and place (three queries)."""
    shared = SeatFact.objects.filter(
        player_id=b, game_id__in=SeatFact.objects.filter(player_id=a).values("game_id")
    ).values_list("game_id", flat=True)
    latest = list(
        GameFact.objects.filter(game_id__in=shared)
        .order_by("-when", "-game_id")
        .values_list("game_id", "ruleset", "when")[:limit]
    )
    seats: dict[tuple[int, int], tuple[Decimal, int]] = {
        (game, player): (total, place)
        for game, player, total, place in SeatFact.objects.filter(
            player_id__in=(a, b), game_id__in=[g for g, _, _ in latest]
        ).values_list("game_id", "player_id", "total", "place")
    }
    return [
        {
            "game": game,
            "ruleset": ruleset,
            "played_at": when,
            "player": {"total": _number(seats[game, a][0]), "place": seats[game, a][1]},
            "opponent": {"total": _number(seats[game, b][0]), "place": seats[game, b][1]},
        }
        for game, ruleset, when in latest
        if (game, a) in seats and (game, b) in seats
    ]


# -- leaderboards --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Gates:
    min_games: int
    max_sigma: float
    active_days: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "min_games": self.min_games,
            "max_sigma": self.max_sigma,
            "active_days": self.active_days,
        }


def leaderboard_gates() -> Gates:
    return Gates(
        settings.RASPIS_LEADERBOARD_MIN_GAMES,
        settings.RASPIS_LEADERBOARD_MAX_SIGMA,
        settings.RASPIS_LEADERBOARD_ACTIVE_DAYS,
    )


def _listed(ruleset: str, gates: Gates, now: dt.datetime | None) -> QuerySet[Rating]:
    """The ratings past the games and activity gates, by ordinal."""
    now = now or timezone.now()
    return Rating.objects.filter(
        ruleset=ruleset,
        games__gte=gates.min_games,
        last_played__gte=now - dt.timedelta(days=gates.active_days),
    ).order_by("-ordinal", "player_id")


_ENTRY_FIELDS = ("player_id", "player__name", "mu", "sigma", "ordinal", "games", "last_played")


def _entry(rank: int | None, row: Sequence[Any]) -> dict[str, Any]:
    player, name, mu, sigma, ordinal, games, last = row
    return {
        "rank": rank,
        "player": {"id": player, "name": name},
        "mu": _skill(mu),
        "sigma": _skill(sigma),
        "ordinal": _skill(ordinal),
        "games": games,
        "last_played": last.isoformat(),
    }


def leaderboard_rows(
    *, ruleset: str, gates: Gates, limit: int | None, now: dt.datetime | None = None
) -> list[dict[str, Any]]:
    """The gated ranking by ordinal (one query): enough games, a settled σ, recent play."""
    rows = _listed(ruleset, gates, now).filter(sigma__lte=gates.max_sigma)
    values = rows.values_list(*_ENTRY_FIELDS)
    if limit is not None:
        values = values[:limit]
    return [_entry(rank, row) for rank, row in enumerate(values, 1)]


def leaderboard_board(
    *, ruleset: str, gates: Gates, now: dt.datetime | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ranked players (those of ``leaderboard_rows``) and the provisional ones, each by
    ordinal, in one query.

    A provisional player has the games and the recent play, but a rating still too
    uncertain (σ above the gate) to be ranked: listed so that a club sees its newcomers,
    without a rank, as lichess marks a provisional rating with "?".
    """
    ranked: list[dict[str, Any]] = []
    provisional: list[dict[str, Any]] = []
    for row in _listed(ruleset, gates, now).values_list(*_ENTRY_FIELDS):
        if row[3] <= gates.max_sigma:
            ranked.append(_entry(len(ranked) + 1, row))
        else:
            provisional.append(_entry(None, row))
    return ranked, provisional


#: The σ every rating starts from (OpenSkill's default, as ``stats.services`` rates).
START_SIGMA = PlackettLuce().sigma


def games_to_settle(*, sigma: float, games: int, max_sigma: float) -> int | None:
    """About how many more games bring a rating's σ down to ``max_sigma``; None if no
    estimate can be made (no games yet, or a gate no rating reaches).

    A rating's precision 1/σ² grows about linearly with the games played (each result adds
    about as much evidence as the last), so the player's own pace so far extrapolates:
    at a table of four a σ of 6 comes after 15 to 25 games.
    """
    if sigma <= max_sigma:
        return 0
    if games <= 0 or max_sigma <= 0:
        return None
    pace = (sigma**-2 - START_SIGMA**-2) / games
    if pace <= 0:
        return None
    return max(1, math.ceil((max_sigma**-2 - START_SIGMA**-2) / pace) - games)


@dataclass(frozen=True, slots=True)
class Standing:
    """Where one player stands against a board's gates, to say what they miss."""

    games: int  #: rated games in the ruleset
    games_missing: int  #: more games to be listed at all
    settle_games: int | None  #: about how many more games to be ranked (0: ranked enough)
    last_played: dt.datetime | None
    inactive: bool  #: no game within the activity gate


def leaderboard_standing(
    *, player_id: int, ruleset: str, gates: Gates, now: dt.datetime | None = None
) -> Standing:
    now = now or timezone.now()
    rating = (
        Rating.objects.filter(player_id=player_id, ruleset=ruleset)
        .values_list("sigma", "games", "last_played")
        .first()
    )
    if rating is None:
        return Standing(0, gates.min_games, None, None, inactive=False)
    sigma, games, last = rating
    return Standing(
        games=games,
        games_missing=max(0, gates.min_games - games),
        settle_games=games_to_settle(sigma=sigma, games=games, max_sigma=gates.max_sigma),
        last_played=last,
        inactive=last < now - dt.timedelta(days=gates.active_days),
    )


def leaderboard_rulesets() -> list[str]:
    """The ruleset keys that have ratings, i.e. a board."""
    return list(Rating.objects.values_list("ruleset", flat=True).distinct().order_by("ruleset"))


def leaderboard_snapshot(*, ruleset: str, date: dt.date) -> LeaderboardSnapshot | None:
    return LeaderboardSnapshot.objects.filter(ruleset=ruleset, date=date).first()
