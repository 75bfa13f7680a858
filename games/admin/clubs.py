"""Clubs, their organisers and the links of accounts to players: trusting a club makes its
organisers' uploads count for statistics without a confirmation by each player."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from core.admin import ReadOnlyAdmin
from core.errors import Rejected
from games.models import (
    Club,
    GameConfirmation,
    PlayerLink,
)
from games.services import club_trust, player_link_approve


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Clubs and their organisers; trusting one makes its organisers' uploads count for
    ratings (docs/trust.md)."""

    list_display = ("name", "trusted_by", "trusted_at", "created_at")
    filter_horizontal = ("organisers",)
    readonly_fields = ("trusted_by", "trusted_at")
    actions = ("trust", "distrust")

    @admin.action(description="Trust the selected clubs", permissions=["change"])
    def trust(self, request: HttpRequest, queryset: QuerySet[Club]) -> None:
        for club in queryset:
            club_trust(club=club, by=request.user)  # type: ignore[arg-type]
        self.message_user(request, f"{queryset.count()} clubs trusted", messages.SUCCESS)

    @admin.action(description="Withdraw the trust of the selected clubs", permissions=["change"])
    def distrust(self, request: HttpRequest, queryset: QuerySet[Club]) -> None:
        for club in queryset:
            club_trust(club=club, by=request.user, trusted=False)  # type: ignore[arg-type]
        self.message_user(request, f"{queryset.count()} clubs no longer trusted", messages.SUCCESS)


@admin.register(PlayerLink)
class PlayerLinkAdmin(admin.ModelAdmin):
    """Accounts' claims to be players; an approved link lets its account confirm games."""

    list_display = ("user", "player", "approved_by", "approved_at", "created_at")
    list_filter = (("approved_by", admin.EmptyFieldListFilter),)
    raw_id_fields = ("user", "player")
    readonly_fields = ("approved_by", "approved_at")
    actions = ("approve",)

    @admin.action(description="Approve the selected links", permissions=["change"])
    def approve(self, request: HttpRequest, queryset: QuerySet[PlayerLink]) -> None:
        try:
            for link in queryset:
                player_link_approve(link=link, by=request.user)  # type: ignore[arg-type]
        except Rejected as refused:
            self.message_user(request, refused.findings[0]["message"], messages.ERROR)
            return
        self.message_user(request, f"{queryset.count()} links approved", messages.SUCCESS)


@admin.register(GameConfirmation)
class GameConfirmationAdmin(ReadOnlyAdmin):
    list_display = ("game", "user", "created_at")
    raw_id_fields = ("game", "user")
