"""Admin views of ratings and statistics, read-only since they are derived data.

``manage.py recompute_stats`` rebuilds them; nothing here edits a row.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from stats.models import HeadToHead, LeaderboardSnapshot, PlayerStat, Rating


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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
