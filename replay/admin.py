"""Admin views of reports, findings and verdict changes: evidence, so read through, not edited."""

from __future__ import annotations

from django.contrib import admin

from replay.models import Finding, Report, VerdictChange


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "verdict", "audit", "engine_version", "current", "created_at")
    list_filter = ("verdict", "audit", "engine_version", "current")
    search_fields = ("=game__id",)
    raw_id_fields = ("game", "record")


@admin.register(Finding)
class FindingAdmin(admin.ModelAdmin):
    list_display = ("game", "code", "severity", "deal", "trick", "play", "player", "message")
    list_filter = ("code", "severity")
    search_fields = ("message", "player", "=game__id")
    raw_id_fields = ("game", "report")


@admin.register(VerdictChange)
class VerdictChangeAdmin(admin.ModelAdmin):
    list_display = ("game", "old", "new", "old_engine", "new_engine", "reason", "at")
    list_filter = ("reason", "old", "new", "new_engine")
    search_fields = ("=game__id",)
    raw_id_fields = ("game",)
