"""Admin views of reports, findings, verdict changes and seat-deals: evidence, so read
through, not edited.

A game's findings are best read on its review page (``games.admin``), where each one is
shown at its play; these lists are for searching across games (every ``play.revoke`` of a
month, every verdict the last engine changed).
"""

from __future__ import annotations

import json

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from core.admin import ReadOnlyAdmin
from games.admin.pages import review_url
from verification.models import Finding, Report, SeatDeal, VerdictChange


def _review(game_id: int, anchor: str = "") -> str:
    return format_html('<a href="{}">review</a>', review_url(game_id, anchor))


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "game",
        "verdict",
        "audit",
        "engine_version",
        "current",
        "created_at",
        "review",
    )
    list_filter = ("verdict", "audit", "engine_version", "current", "created_at")
    search_fields = ("=game__id", "=record__sha256")
    fields = (
        "game",
        "record",
        "engine_version",
        "verdict",
        "audit",
        "current",
        "created_at",
        "indented",
    )
    readonly_fields = ("indented",)
    list_select_related = ("game",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        return super().get_queryset(request).defer("data")

    @admin.display(description="")
    def review(self, report: Report) -> str:
        return _review(report.game_id)

    @admin.display(description="data")
    def indented(self, report: Report) -> str:
        """The report indented: it is stored compact, as ingest writes it (``json_text``)."""
        text = json.dumps(report.as_dict(), indent=2, ensure_ascii=False)
        return format_html("<pre>{}</pre>", text)


@admin.register(Finding)
class FindingAdmin(ReadOnlyAdmin):
    list_display = (
        "game",
        "code",
        "severity",
        "deal",
        "trick",
        "play",
        "player",
        "message",
        "review",
    )
    list_filter = ("code", "severity", "report__current", "report__engine_version")
    search_fields = ("message", "player", "=game__id")
    list_select_related = ("game",)

    @admin.display(description="")
    def review(self, finding: Finding) -> str:
        anchor = ""
        if finding.deal is not None:
            anchor = f"deal-{finding.deal}"
            if finding.trick is not None:
                anchor += f"-trick-{finding.trick}"
                if finding.play is not None:
                    anchor += f"-play-{finding.play}"
        return _review(finding.game_id, anchor)


@admin.register(VerdictChange)
class VerdictChangeAdmin(ReadOnlyAdmin):
    list_display = ("game", "old", "new", "old_engine", "new_engine", "reason", "at", "review")
    list_filter = ("reason", "old", "new", "new_engine", "at")
    search_fields = ("=game__id",)
    list_select_related = ("game",)
    date_hierarchy = "at"

    @admin.display(description="")
    def review(self, change: VerdictChange) -> str:
        return _review(change.game_id)


@admin.register(SeatDeal)
class SeatDealAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "seat", "kind", "cards", "bid", "taken", "score")
    list_filter = ("kind", "dark", "cards")
    search_fields = ("=game__id",)
    list_select_related = ("game",)
