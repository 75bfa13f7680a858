"""Admin views of records, players, uploads and disputes: the staff's interface to this app.

These are the basic lists so that every model can be found and inspected; records and uploads
are shown read-only, since a stored record is never modified.
"""

from __future__ import annotations

from django.contrib import admin

from games.models import (
    Dispute,
    Game,
    GameRecord,
    GameSeat,
    Player,
    PlayerAlias,
    SeatDeal,
    StoredRuleset,
    Upload,
    UploadItem,
)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "key", "merged_into", "created_at")
    list_filter = ("created_at",)
    search_fields = ("name", "key")
    raw_id_fields = ("merged_into",)


@admin.register(PlayerAlias)
class PlayerAliasAdmin(admin.ModelAdmin):
    list_display = ("name", "key", "player", "created_by", "created_at")
    list_filter = ("created_at",)
    search_fields = ("name", "key", "player__name")
    raw_id_fields = ("player",)


@admin.register(StoredRuleset)
class StoredRulesetAdmin(admin.ModelAdmin):
    list_display = ("name", "preset", "created_by", "created_at")
    list_filter = ("preset",)
    search_fields = ("name",)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "ruleset_preset",
        "played_at",
        "verdict",
        "status",
        "visibility",
        "players_count",
        "uploaded_by",
        "created_at",
    )
    list_filter = ("status", "verdict", "ruleset_preset", "visibility", "audit")
    search_fields = ("=id", "external_id", "source", "seats__name")
    raw_id_fields = ("upload",)
    date_hierarchy = "created_at"


@admin.register(GameRecord)
class GameRecordAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "sha256", "current", "uploaded_by", "created_at")
    list_filter = ("current",)
    search_fields = ("sha256", "=game__id")
    raw_id_fields = ("game", "upload")
    readonly_fields = ("game", "text", "sha256", "current", "uploaded_by", "upload", "created_at")


@admin.register(GameSeat)
class GameSeatAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "name", "player", "total", "place", "winner")
    list_filter = ("winner", "place")
    search_fields = ("name", "player__name", "=game__id")
    raw_id_fields = ("game", "player")


@admin.register(SeatDeal)
class SeatDealAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "seat", "player", "kind", "cards", "bid", "taken", "score")
    list_filter = ("kind", "dark")
    search_fields = ("player__name", "=game__id")
    raw_id_fields = ("game", "player")


@admin.register(Upload)
class UploadAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "filename",
        "uploaded_by",
        "status",
        "total",
        "done",
        "failed",
        "duplicates",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", "visibility")
    search_fields = ("filename", "sha256", "uploaded_by__username")
    exclude = ("data",)
    readonly_fields = ("sha256", "size", "total", "done", "failed", "duplicates")


@admin.register(UploadItem)
class UploadItemAdmin(admin.ModelAdmin):
    list_display = ("upload", "index", "label", "batch", "outcome", "game")
    list_filter = ("outcome",)
    search_fields = ("label", "=upload__id")
    raw_id_fields = ("upload", "game")


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "game",
        "opened_by",
        "status",
        "deal",
        "trick",
        "decided_by",
        "created_at",
    )
    list_filter = ("status",)
    search_fields = ("reason", "note", "=game__id", "opened_by__username")
    raw_id_fields = ("game",)
