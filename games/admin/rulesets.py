"""Stored rulesets: the named rules a club plays by, which records may cite by name."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest

from games.forms import StoredRulesetForm
from games.models import (
    Game,
    StoredRuleset,
)


@admin.register(StoredRuleset)
class StoredRulesetAdmin(admin.ModelAdmin):
    list_display = ("name", "preset", "games", "created_by", "created_at")
    list_filter = ("preset",)
    search_fields = ("name", "preset")
    readonly_fields = ("created_by", "created_at")
    list_select_related = ("created_by",)
    form = StoredRulesetForm

    @admin.display(description="games")
    def games(self, ruleset: StoredRuleset) -> int:
        return Game.objects.filter(ruleset_name=ruleset.name).count()

    def save_model(self, request: HttpRequest, obj: StoredRuleset, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)
        games = Game.objects.filter(ruleset_name=obj.name).count()
        if change and games:
            self.message_user(
                request,
                f"{games} stored games name {obj.name}: re-verify them (Games, action "
                f"“Re-verify”, filtered by the ruleset) to judge them by the changed rules.",
                messages.WARNING,
            )
