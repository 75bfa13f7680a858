"""Games: the list, the review queue of flagged and disputed games, and each game's review
page (the findings, the claimed against the recomputed results deal by deal, every trick with
its offending plays marked, the disputes), with the action that re-verifies them.

Everything derived from a record (seats, seat-deals, reports, findings) and the records
themselves are read-only here: a stored record is never modified, and the rest is rebuilt
from it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.html import format_html

from core.admin import ReadOnlyAdmin, ReadOnlyInline
from games.admin.disputes import decide_disputes
from games.admin.pages import replay_url, review_url, seat_names
from games.forms import DisputeDecisionForm
from games.models import (
    Dispute,
    DisputeStatus,
    Game,
    GameRecord,
    GameSeat,
    GameToReview,
)
from games.selectors import REVIEW_ORDER, game_review_queue
from replay import ENGINE_VERSION, Family
from verification.models import Finding
from verification.poker_selectors import poker_game
from verification.rummy_selectors import RummyReview, rummy_review
from verification.selectors import GameReview, game_review
from verification.services.reverify import games_reverify


@admin.action(
    description="Re-verify the selected games with the current engine", permissions=["change"]
)
def reverify(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Game]) -> None:
    ids = list(queryset.order_by("pk").values_list("pk", flat=True))
    summary = games_reverify(game_ids=ids)
    modeladmin.message_user(
        request,
        f"Re-verified {summary.games} games with engine {ENGINE_VERSION}: "
        f"{summary.changes} verdicts changed.",
        messages.SUCCESS,
    )


class GameSeatInline(ReadOnlyInline):
    model = GameSeat
    fields = ("seat", "name", "player", "total", "place", "winner")
    readonly_fields = fields


class DisputeInline(ReadOnlyInline):
    model = Dispute
    fields = ("status", "opened_by", "reason", "deal", "trick", "decided_by", "decided_at")
    readonly_fields = fields


class GameRecordInline(ReadOnlyInline):
    model = GameRecord
    fields = ("sha256", "current", "uploaded_by", "created_at")
    readonly_fields = fields


def _table(game: Game) -> str:
    return ", ".join(seat.name for seat in game.seats.all())


def _count(model: Any, **filters: Any) -> Coalesce:
    rows = (
        model.objects.filter(game=OuterRef("pk"), **filters)
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), 0)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "table",
        "family",
        "ruleset",
        "played_at",
        "verdict",
        "status",
        "visibility",
        "uploaded_by",
        "created_at",
        "review",
    )
    list_filter = (
        "status",
        "verdict",
        "family",
        "ruleset_preset",
        "ruleset_name",
        "visibility",
        "audit",
    )
    search_fields = ("=id", "external_id", "source", "seats__name")
    list_select_related = ("uploaded_by",)
    date_hierarchy = "created_at"
    readonly_fields = (
        "ruleset_preset",
        "ruleset_name",
        "played_at",
        "source",
        "external_id",
        "uploaded_by",
        "visibility",
        "verdict",
        "audit",
        "status",
        "players_count",
        "deals_count",
        "created_at",
        "updated_at",
    )
    inlines = (GameSeatInline, DisputeInline, GameRecordInline)
    actions = (reverify,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games come from records (the API or an upload)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).prefetch_related("seats")

    @admin.display(description="players")
    def table(self, game: Game) -> str:
        return _table(game)

    @admin.display(ordering="ruleset_preset", description="ruleset")
    def ruleset(self, game: Game) -> str:
        return game.ruleset_name or game.ruleset_preset

    @admin.display(description="")
    def review(self, game: Game) -> str:
        return format_html('<a href="{}">review</a>', review_url(game.pk))

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.review_view)
        urls: list[Any] = super().get_urls()
        return [path("<path:object_id>/review/", view, name="games_game_review"), *urls]

    def review_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The review page: GET shows the game; POST re-verifies it or decides a dispute."""
        game = self.get_object(request, unquote(object_id))
        if game is None:
            raise Http404(f"no game {object_id}")
        if not self.has_view_permission(request, game):
            raise PermissionDenied
        here = review_url(game.pk)
        rummy = game.family == Family.RUMMY
        review: GameReview | RummyReview = (
            rummy_review(game=game) if rummy else game_review(game=game)
        )
        recomputed = [claim.recomputed for _, claim in review.totals]
        # A poker game shows its hands and the table at each finding (its own template).
        poker = poker_game(game=game) if game.family == Family.POKER else None
        if poker is not None:
            recomputed = [int(seat.total) for seat in poker.seats]
        can_reverify = self.has_change_permission(request, game)
        can_decide = request.user.has_perm("games.change_dispute")
        bound: tuple[int, DisputeDecisionForm] | None = None
        if request.method == "POST":
            action = request.POST.get("action")
            if action == "reverify":
                if not can_reverify:
                    raise PermissionDenied
                reverify(self, request, Game.objects.filter(pk=game.pk))
                return HttpResponseRedirect(here)
            if action != "decide" or not can_decide:
                raise PermissionDenied
            number = request.POST.get("dispute", "")
            if not number.isdigit():
                raise Http404("no such dispute")
            chosen = get_object_or_404(Dispute, pk=int(number), game=game)
            posted = DisputeDecisionForm(
                request.POST,
                players=seat_names(game.pk),
                recomputed=recomputed,
                prefix=f"dispute-{chosen.pk}",
            )
            if decide_disputes(self, request, [chosen], posted):
                return HttpResponseRedirect(f"{here}#dispute-{chosen.pk}")
            bound = (chosen.pk, posted)
        players = seat_names(game.pk)
        disputes: list[tuple[Dispute, DisputeDecisionForm | None]] = []
        for dispute in game.disputes.select_related("opened_by", "decided_by").order_by("pk"):
            form = None
            if can_decide and dispute.status == DisputeStatus.OPEN:
                if bound is not None and bound[0] == dispute.pk:
                    form = bound[1]
                else:
                    form = DisputeDecisionForm(
                        players=players, recomputed=recomputed, prefix=f"dispute-{dispute.pk}"
                    )
            disputes.append((dispute, form))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Review of game {game.pk}",
            "opts": self.model._meta,
            "game": game,
            "review": review,
            "poker": poker,
            "poker_findings": poker.finding_states() if poker is not None else [],
            "replay": replay_url(game.pk),
            "disputes": disputes,
            "can_reverify": can_reverify,
            "verdict_changes": game.verdict_changes.all()[:20],
            "records": game.records.order_by("pk").only("sha256", "current", "created_at"),
        }
        template = "rummy_review.html" if rummy else "review.html"
        return TemplateResponse(request, f"admin/games/game/{template}", context)


@admin.register(GameToReview)
class ReviewQueueAdmin(admin.ModelAdmin):
    """Flagged and disputed games, the longest waiting first; each row opens its review."""

    list_display = (
        "review",
        "status",
        "verdict",
        "ruleset",
        "table",
        "findings",
        "first_finding",
        "open_disputes",
        "created_at",
    )
    list_display_links = None
    list_filter = ("status", "verdict", "ruleset_preset", "audit")
    search_fields = ("=id", "external_id", "source", "seats__name")
    ordering = REVIEW_ORDER
    actions = (reverify,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        first = Finding.objects.filter(game=OuterRef("pk"), report__current=True).order_by("pk")
        return (
            game_review_queue(games=super().get_queryset(request))
            .annotate(
                findings_count=_count(Finding, report__current=True),
                open_disputes_count=_count(Dispute, status=DisputeStatus.OPEN),
                first_finding_message=Subquery(first.values("message")[:1]),
            )
            .prefetch_related("seats")
        )

    def change_view(self, request: HttpRequest, object_id: str, *args: Any, **kwargs: Any) -> Any:
        return HttpResponseRedirect(review_url(int(unquote(object_id))))

    @admin.display(ordering="id", description="game")
    def review(self, game: Game) -> str:
        return format_html('<a href="{}">game {}</a>', review_url(game.pk), game.pk)

    @admin.display(description="players")
    def table(self, game: Game) -> str:
        return _table(game)

    @admin.display(ordering="ruleset_preset", description="ruleset")
    def ruleset(self, game: Game) -> str:
        return game.ruleset_name or game.ruleset_preset

    @admin.display(ordering="findings_count", description="findings")
    def findings(self, game: Game) -> int:
        return getattr(game, "findings_count", 0)

    @admin.display(description="first finding")
    def first_finding(self, game: Game) -> str:
        return getattr(game, "first_finding_message", None) or "—"

    @admin.display(ordering="open_disputes_count", description="open disputes")
    def open_disputes(self, game: Game) -> int:
        return getattr(game, "open_disputes_count", 0)

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        title = "Review queue: flagged and disputed games, the longest waiting first"
        return super().changelist_view(request, {"title": title, **(extra_context or {})})


@admin.register(GameRecord)
class GameRecordAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "sha256", "current", "uploaded_by", "created_at")
    list_filter = ("current", "created_at")
    search_fields = ("sha256", "=game__id")
    list_select_related = ("game", "uploaded_by")
    fields = ("game", "sha256", "current", "uploaded_by", "created_at", "text")


@admin.register(GameSeat)
class GameSeatAdmin(ReadOnlyAdmin):
    list_display = ("game", "seat", "name", "player", "total", "place", "winner")
    list_filter = ("winner", "place")
    search_fields = ("name", "player__name", "=game__id")
    list_select_related = ("game", "player")
