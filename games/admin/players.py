"""Players and the names they were written under: listed, searched and merged (two names
of one person); players come from records, so none is added here."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from core.admin import ReadOnlyAdmin, ReadOnlyInline
from core.errors import Rejected
from games.admin.pages import action_page
from games.forms import PlayerMergeForm
from games.models import (
    Player,
    PlayerAlias,
)
from games.services import player_merge


class PlayerAliasInline(ReadOnlyInline):
    model = PlayerAlias
    fk_name = "player"
    fields = ("name", "key", "created_by", "created_at")
    readonly_fields = fields


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "key", "games", "merged_into", "created_at")
    list_filter = (("merged_into", admin.EmptyFieldListFilter), "created_at")
    search_fields = ("name", "key", "aliases__name")
    readonly_fields = ("key", "merged_into", "created_at")
    list_select_related = ("merged_into",)
    inlines = (PlayerAliasInline,)
    actions = ("merge",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players come from records

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).annotate(games=Count("seats"))

    @admin.display(ordering="games", description="games")
    def games(self, player: Player) -> int:
        return getattr(player, "games", 0)

    @admin.action(
        description="Merge the selected players (two names of one person)", permissions=["change"]
    )
    def merge(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        """Choose the target among the selected players; the others are merged into it."""
        players = queryset.filter(merged_into=None).order_by("name")
        if players.count() < 2:
            self.message_user(
                request, "Select two or more players that are not merged already.", messages.ERROR
            )
            return None
        form = PlayerMergeForm(request.POST if "apply" in request.POST else None, players=players)
        if form.is_bound and form.is_valid():
            target = form.cleaned_data["target"]
            for source in players.exclude(pk=target.pk):
                try:
                    player_merge(source=source, target=target, by=request.user)
                except Rejected as refused:
                    self.message_user(request, f"{source.name}: {refused}", messages.ERROR)
                else:
                    self.message_user(
                        request, f"{source.name} merged into {target.name}.", messages.SUCCESS
                    )
            return None
        return action_page(
            self,
            request,
            queryset,
            "Merge players",
            "admin/games/player/merge.html",
            form=form,
            players=players,
        )


@admin.register(PlayerAlias)
class PlayerAliasAdmin(ReadOnlyAdmin):
    list_display = ("name", "key", "player", "created_by", "created_at")
    list_filter = ("created_at",)
    search_fields = ("name", "key", "player__name")
    list_select_related = ("player", "created_by")
