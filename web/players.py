"""A player's page, two players head to head, and the leaderboards.

Everything here is public and read from the statistics' precomputed rows
(``stats.selectors``), which hold counted public games only: a player known only from
private games, or from none, is a 404, as on the API. A name merged into another player
(``games.services.player_merge``) leads to the player it now belongs to.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from core.charts import Chart, bar_chart, number
from games.selectors import player_find, player_merged_into
from stats import selectors
from stats.models import ALL
from web import player_charts
from web.player_charts import percent

PLAYERS_PER_PAGE = 50
RECENT_GAMES = 12
OPPONENTS = 12
SHARED_GAMES = 20


def _ruleset_param(request: HttpRequest, known: set[str]) -> str:
    """``?ruleset=`` among the player's ruleset keys (empty: all); another is a 404."""
    ruleset = request.GET.get("ruleset", ALL)
    if ruleset != ALL and ruleset not in known:
        raise Http404(_("This player has no games under that ruleset."))
    return ruleset


def _stats(player_id: int, ruleset: str) -> dict[str, Any]:
    body = selectors.player_stats_body(player_id=player_id, ruleset=ruleset)
    if body is not None:
        figures: dict[str, Any] = json.loads(body.body)
        return figures
    rows = selectors.player_stat_rows(player_id=player_id, ruleset=ruleset)
    return selectors.player_stats_data(
        player_id=player_id, ruleset=ruleset, since="", until="", rows=rows.rows
    )


@require_GET
def player_list_page(request: HttpRequest) -> HttpResponse:
    """The players with public games, by name, searched as ``GET /api/players/?search=``."""
    search = request.GET.get("search", "").strip()[:200]
    if "\x00" in search:  # no name holds one, and PostgreSQL cannot even compare it
        context = {"page": None, "search": "", "error": _("A name has no NUL character.")}
        return render(request, "web/players.html", context, status=400)
    rows = selectors.player_list(search=search)
    page = Paginator(rows, PLAYERS_PER_PAGE).get_page(request.GET.get("page", "1"))
    keep = urlencode({"search": search}) if search else ""
    return render(request, "web/players.html", {"page": page, "search": search, "keep": keep})


@require_GET
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    target = player_merged_into(player_id=player_id)
    if target is not None:
        return redirect("player-page", player_id=target)
    detail = selectors.player_detail(player_id=player_id)
    if detail is None:
        raise Http404(_("No player with public games has this number."))
    data = selectors.player_detail_data(player_id=player_id, detail=detail)
    rulesets = [r["ruleset"] for r in data["rulesets"]]
    ruleset = _ruleset_param(request, set(rulesets))
    figures = _stats(player_id, ruleset)
    rating_rows = selectors.player_rating_rows(player_id=player_id, ruleset=ruleset)
    ratings = selectors.player_ratings_data(player_id=player_id, ratings=rating_rows)
    gates = selectors.leaderboard_gates()
    bidding = figures["bidding"]
    charts = [("rating", player_charts.rating_chart(ratings))]
    if bidding["deals"]:
        charts += [
            ("difference", player_charts.difference_chart(bidding)),
            ("by-cards", player_charts.by_cards_chart(bidding)),
            ("by-kind", player_charts.by_kind_chart(bidding)),
        ]
    if figures.get("poker") and figures["poker"]["by_category"]:
        charts.append(("categories", player_charts.categories_chart(figures["poker"])))
    charts.append(("trend", player_charts.trend_chart(figures["months"])))
    context = {
        "player": data,
        "ruleset": ruleset,
        "rulesets": rulesets,
        "summary": _summary(figures),
        "results": [_result(r, gates) for r in data["rulesets"]],
        "recent": selectors.player_recent_games(
            player_id=player_id, history=ratings, limit=RECENT_GAMES
        ),
        "opponents": selectors.player_opponents(player_id=player_id, limit=OPPONENTS),
        "rummy": _rummy(figures.get("rummy")),
        "poker": _poker(figures.get("poker")),
        "charts": charts,
    }
    return render(request, "web/player.html", context)


def _summary(figures: dict[str, Any]) -> list[tuple[str, str]]:
    """The headline figures, as (value, name)."""
    bidding = figures["bidding"]
    summary = [
        (number(figures["games"]), _("games")),
        (number(figures["wins"]), _("wins")),
        (percent(figures["win_rate"]), _("win rate")),
    ]
    # Totals only within a ruleset: across rulesets they are on different scales.
    if figures["average_total"] is not None:
        summary.append((number(figures["average_total"]), _("average total")))
    if figures["best_total"] is not None:
        summary.append((number(figures["best_total"]), _("best total")))
    if bidding["deals"]:
        summary.append((percent(bidding["exact_rate"]), _("exact bids")))
    return summary


def _rummy(figures: dict[str, Any] | None) -> list[tuple[str, str]]:
    """The rummy's figures (``stats.selectors``), as (value, name); none without its games."""
    if figures is None:
        return []
    return [
        (number(figures["deals"]), _("deals")),
        (number(figures["per_deal"]), _("points per deal (the lowest total wins)")),
        (percent(figures["out_rate"]), _("deals gone out in")),
        (number(figures["out_round"]), _("average round of going out")),
        (number(figures["out_on_jokers"]), _("outs on jokers")),
        (percent(figures["opening_rate"]), _("deals opened in")),
        (number(figures["opening_round"]), _("average round of the opening")),
        (number(figures["opening_worth"]), _("average worth of the opening")),
        (number(figures["left_per_deal"]), _("points left in hand per deal lost")),
    ]


def _poker(figures: dict[str, Any] | None) -> list[tuple[str, str]]:
    """The poker's figures (``stats.selectors``), as (value, name); none without its games."""
    if figures is None:
        return []
    return [
        (number(figures["hands"]), _("hands")),
        (percent(figures["win_rate"]), _("hands won")),
        (player_charts.signed(figures["net"], 0), _("chips won, net")),
        (player_charts.signed(figures["net_per_hand"]), _("chips per hand")),
        (number(figures["showdowns"]), _("showdowns")),
        (percent(figures["showdown_win_rate"]), _("showdowns won")),
        (number(sum(f["hands"] for f in figures["folds"])), _("folds")),
    ]


def _result(row: dict[str, Any], gates: selectors.Gates) -> dict[str, Any]:
    """A row of the results per ruleset, its figures written out."""
    rating = row["rating"]
    return {
        "ruleset": row["ruleset"],
        "games": number(row["games"]),
        "wins": number(row["wins"]),
        "win_rate": percent(row["win_rate"]),
        "average_total": number(row["average_total"]),
        "best_total": number(row["best_total"]),
        "rating": None if rating is None else number(rating["ordinal"], 1),
        "provisional": rating is not None
        and (rating["games"] < gates.min_games or rating["sigma"] > gates.max_sigma),
    }


@require_GET
def versus_page(request: HttpRequest, player_id: int, opponent_id: int) -> HttpResponse:
    if player_id == opponent_id:
        raise Http404(_("A player does not play against themselves."))
    for pk in (player_id, opponent_id):
        if not selectors.player_known(player_id=pk):
            raise Http404(_("No player with public games has this number."))
    rows = selectors.versus_rows(a=player_id, b=opponent_id)
    data = selectors.versus_data(a=player_id, b=opponent_id, rows=rows)
    if not rows:  # never at one table: the names come from the players themselves
        for side, pk in (("player", player_id), ("opponent", opponent_id)):
            detail = selectors.player_detail(player_id=pk)
            assert detail is not None
            data[side]["name"] = detail.rows[0]["player__name"]
    context = {
        "versus": data,
        "games": selectors.versus_games(a=player_id, b=opponent_id, limit=SHARED_GAMES),
        "chart": _versus_chart(data),
    }
    return render(request, "web/versus.html", context)


def _versus_chart(data: dict[str, Any]) -> Chart:
    me, them = data["player"]["name"], data["opponent"]["name"]
    counts = [
        (_("%(name)s ahead") % {"name": me}, data["ahead"]),
        (_("level"), data["ties"]),
        (_("%(name)s ahead") % {"name": them}, data["behind"]),
    ]
    return bar_chart(
        title=_("Who finished above whom"),
        description=_("Games at one table: %(a)s ahead %(x)s, level %(t)s, %(b)s ahead %(y)s.")
        % {"a": me, "b": them, "x": data["ahead"], "y": data["behind"], "t": data["ties"]},
        bars=[(label, float(n)) for label, n in counts] if data["games"] else [],
        value_label=lambda v: number(v, 0),
        columns=[_("Result"), _("Games")],
        rows=[(label, number(n)) for label, n in counts] if data["games"] else [],
    )


@require_GET
def leaderboard_list_page(request: HttpRequest) -> HttpResponse:
    return render(request, "web/leaderboards.html", {"rulesets": selectors.leaderboard_rulesets()})


@require_GET
def leaderboard_page(request: HttpRequest, ruleset: str) -> HttpResponse:
    rulesets = selectors.leaderboard_rulesets()
    if ruleset not in rulesets:
        raise Http404(_("No rated games under this ruleset."))
    gates = selectors.leaderboard_gates()
    ranked, provisional = selectors.leaderboard_board(ruleset=ruleset, gates=gates)
    for entry in ranked + provisional:
        entry["played"] = dt.datetime.fromisoformat(entry["last_played"])
    listed = {e["player"]["id"]: e for e in ranked + provisional}
    me = _signed_in_player(request)
    standing = None
    mine = None
    if me is not None:
        mine = listed.get(me)
        if mine is None or mine["rank"] is None:
            standing = selectors.leaderboard_standing(player_id=me, ruleset=ruleset, gates=gates)
    context = {
        "ruleset": ruleset,
        "rulesets": rulesets,
        "ranked": ranked,
        "provisional": provisional,
        "gates": gates,
        "me": me,
        "mine": mine,
        "standing": standing,
        "player_url": reverse("player-page", args=[me]) if me is not None else None,
    }
    return render(request, "web/leaderboard.html", context)


def _signed_in_player(request: HttpRequest) -> int | None:
    """The player a signed-in account stands for: the player whose name (or alias) is the
    account's username. Accounts are not otherwise tied to players."""
    if not request.user.is_authenticated:
        return None
    player = player_find(name=request.user.get_username())
    if player is None:
        return None
    return player.merged_into_id or player.pk
