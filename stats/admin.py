"""Admin views of ratings and statistics, read-only since they are derived data, and the
player's page with their statistics and a chart of each rating.

``manage.py recompute_stats`` rebuilds them; nothing here edits a row.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.admin import ReadOnlyAdmin
from core.charts import Chart, line_chart, number
from games.admin.players import PlayerAdmin
from games.models import Player
from stats import selectors as stats_selectors
from stats.models import HeadToHead, LeaderboardSnapshot, PlayerStat, Rating


def _rating_chart(rating: dict[str, Any]) -> Chart:
    """A rating's ordinal game by game (the x axis counts games, not days), with the dates of
    the first and the last game under it and every game in the table, latest first."""
    history = rating["history"]
    ticks = (
        [
            (float(i), date_format(history[i]["played_at"], "SHORT_DATE_FORMAT"))
            for i in sorted({0, len(history) - 1})
        ]
        if history
        else []
    )
    return line_chart(
        title=_("Rating (μ − 3σ) in %(ruleset)s, game by game") % {"ruleset": rating["ruleset"]},
        description=_("The rating (μ − 3σ) after each game; now: %(latest)s.")
        % {"latest": number(rating["ordinal"], 2)},
        series=[(rating["ruleset"], [(float(i), e["ordinal"]) for i, e in enumerate(history)])],
        x_ticks=ticks,
        value_label=lambda v: number(v, 2),
        columns=[_("Game"), _("Date"), _("Rating"), "μ", "σ"],
        rows=[
            (
                str(e["game"]),
                date_format(e["played_at"], "SHORT_DATE_FORMAT"),
                *(number(e[key], 2) for key in ("ordinal", "mu", "sigma")),
            )
            for e in reversed(history)
        ],
    )


def _player_statistics(player_id: int) -> dict[str, Any]:
    """What the player page shows of the statistics (``stats.selectors``): the overall and
    per-ruleset figures of counted public games, and each rating's ordinal as a chart."""
    detail = stats_selectors.player_detail(player_id=player_id)
    if detail is None:
        return {"statistics": None}
    data = stats_selectors.player_detail_data(player_id=player_id, detail=detail)
    ratings = stats_selectors.player_ratings_data(
        player_id=player_id, ratings=stats_selectors.player_rating_rows(player_id=player_id)
    )
    return {"statistics": data, "rating_charts": [(r, _rating_chart(r)) for r in ratings]}


# The games' admin lists and merges players; this one adds what only statistics know.
admin.site.unregister(Player)


@admin.register(Player)
class PlayerStatisticsAdmin(PlayerAdmin):
    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """The player with their statistics and a chart of each rating, game by game."""
        context = dict(extra_context or {})
        if object_id.isdigit():
            context.update(_player_statistics(int(object_id)))
        return super().change_view(request, object_id, form_url, context)


@admin.register(PlayerStat)
class PlayerStatAdmin(ReadOnlyAdmin):
    list_display = ("player", "ruleset", "period", "games", "wins", "bids", "exact", "updated_at")
    list_filter = ("ruleset",)
    search_fields = ("player__name",)
    list_select_related = ("player",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[PlayerStat]:
        return super().get_queryset(request).defer("counters", "body")


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("player", "ruleset", "ordinal", "mu", "sigma", "games", "last_played")
    list_filter = ("ruleset",)
    search_fields = ("player__name",)
    list_select_related = ("player",)
    ordering = ("ruleset", "-ordinal")


@admin.register(HeadToHead)
class HeadToHeadAdmin(ReadOnlyAdmin):
    list_display = ("player_a", "player_b", "ruleset", "games", "a_ahead", "b_ahead", "ties")
    search_fields = ("player_a__name", "player_b__name")
    list_select_related = ("player_a", "player_b")


@admin.register(LeaderboardSnapshot)
class LeaderboardSnapshotAdmin(ReadOnlyAdmin):
    list_display = ("ruleset", "date", "created_at")
    list_filter = ("ruleset",)
    date_hierarchy = "date"
