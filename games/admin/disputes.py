"""Disputes: a reviewer decides them here, one by one or several at once; the service refuses
one decided meanwhile, and the others still go through."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.html import format_html

from core.errors import Rejected
from games.admin.pages import action_page, review_url, seat_names
from games.forms import DisputeDecisionForm
from games.models import (
    Dispute,
    DisputeStatus,
)
from games.services import dispute_resolve


def decide_disputes(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    disputes: Sequence[Dispute],
    form: DisputeDecisionForm,
) -> bool:
    """Decide the disputes as the form says; False (with the form's errors) if it is invalid.

    Each dispute is decided in its own transaction (``dispute_resolve``): one the service
    refuses (decided meanwhile) is reported and the others still go through.
    """
    if not form.is_valid():
        return False
    for dispute in disputes:
        try:
            dispute_resolve(
                dispute=dispute,
                decision=form.cleaned_data["decision"],
                note=form.cleaned_data["note"],
                corrected_scores=form.corrected_scores(),
                by=request.user,
            )
        except Rejected as refused:
            modeladmin.message_user(request, f"Dispute {dispute.pk}: {refused}", messages.ERROR)
        else:
            modeladmin.message_user(
                request,
                f"Dispute {dispute.pk} on game {dispute.game_id}: {form.cleaned_data['decision']}.",
                messages.SUCCESS,
            )
    return True


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
        "decided_at",
        "created_at",
        "review",
    )
    list_filter = ("status", "created_at", "decided_at")
    search_fields = ("reason", "note", "=game__id", "opened_by__username")
    list_select_related = ("game", "opened_by", "decided_by")
    readonly_fields = (
        "game",
        "opened_by",
        "reason",
        "deal",
        "trick",
        "status",
        "note",
        "corrected_scores",
        "decided_by",
        "decided_at",
        "created_at",
    )
    actions = ("decide",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players open disputes through the API

    @admin.display(description="")
    def review(self, dispute: Dispute) -> str:
        return format_html(
            '<a href="{}">review</a>', review_url(dispute.game_id, f"dispute-{dispute.pk}")
        )

    @admin.action(description="Decide the selected open disputes", permissions=["change"])
    def decide(self, request: HttpRequest, queryset: QuerySet[Dispute]) -> TemplateResponse | None:
        """One decision and note for every selected open dispute (corrected: of one game)."""
        disputes = list(queryset.filter(status=DisputeStatus.OPEN).order_by("pk"))
        if not disputes:
            self.message_user(request, "None of the selected disputes is open.", messages.ERROR)
            return None
        games = {d.game_id for d in disputes}
        players = seat_names(next(iter(games))) if len(games) == 1 else []
        form = DisputeDecisionForm(
            request.POST if "apply" in request.POST else None, players=players
        )
        if form.is_bound and decide_disputes(self, request, disputes, form):
            return None
        return action_page(
            self,
            request,
            queryset,
            "Decide disputes",
            "admin/games/dispute/decide.html",
            form=form,
            disputes=disputes,
        )
