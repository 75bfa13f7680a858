"""The staff's interface to games, players, rulesets and disputes: one more interface over
``games.services`` and ``verification.services``, like the API.

- The **review queue** lists flagged and disputed games, the longest waiting first; each
  opens the **review page** of its game: the findings, the claimed against the recomputed
  results deal by deal, every trick with its offending plays marked, the disputes with a
  form to decide each one, and a button to re-verify.
- Actions: re-verify games, decide disputes, merge players. Each calls its service, which
  refuses what it must; a refusal is shown as a message and changes nothing.

Everything derived from a record (seats, seat-deals, reports, findings) and the records
themselves are read-only here: a stored record is never modified, and the rest is rebuilt
from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _

from core.admin import ReadOnlyAdmin, ReadOnlyInline
from core.charts import Chart, line_chart, number
from core.errors import Rejected
from games.forms import DisputeDecisionForm, PlayerMergeForm, StoredRulesetForm
from games.models import (
    Club,
    Dispute,
    DisputeStatus,
    Game,
    GameConfirmation,
    GameRecord,
    GameSeat,
    GameToReview,
    Player,
    PlayerAlias,
    PlayerLink,
    StoredRuleset,
)
from games.selectors import REVIEW_ORDER, game_review_queue
from games.services import club_trust, dispute_resolve, player_link_approve, player_merge
from replay import ENGINE_VERSION, Family
from stats import selectors as stats_selectors
from verification.models import Finding
from verification.poker_selectors import poker_game
from verification.rummy_selectors import RummyReview, rummy_review
from verification.selectors import GameReview, game_review
from verification.services.reverify import games_reverify


def review_url(game_id: int, anchor: str = "") -> str:
    return reverse("admin:games_game_review", args=[game_id]) + (f"#{anchor}" if anchor else "")


def replay_url(game_id: int) -> str:
    """The public replay of a game, where ``?deal=D&trick=T&play=P`` opens one moment."""
    return reverse("game-page", args=[game_id])


def _seat_names(game_id: int) -> list[str]:
    return list(
        GameSeat.objects.filter(game_id=game_id).order_by("seat").values_list("name", flat=True)
    )


def _action_page(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any],
    title: str,
    template: str,
    **context: Any,
) -> TemplateResponse:
    """The intermediate page of an action that asks for a form before it acts.

    It posts the selection back with the action's name, so ``apply`` returns to the action.
    """
    return TemplateResponse(
        request,
        template,
        {
            **modeladmin.admin_site.each_context(request),
            "title": title,
            "opts": modeladmin.model._meta,
            "selected": queryset.values_list("pk", flat=True),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            **context,
        },
    )


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


# -- players ---------------------------------------------------------------------------------


class PlayerAliasInline(ReadOnlyInline):
    model = PlayerAlias
    fk_name = "player"
    fields = ("name", "key", "created_by", "created_at")
    readonly_fields = fields


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
        return _action_page(
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


# -- games -----------------------------------------------------------------------------------


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
                players=_seat_names(game.pk),
                recomputed=recomputed,
                prefix=f"dispute-{chosen.pk}",
            )
            if _decide(self, request, [chosen], posted):
                return HttpResponseRedirect(f"{here}#dispute-{chosen.pk}")
            bound = (chosen.pk, posted)
        players = _seat_names(game.pk)
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


# -- disputes --------------------------------------------------------------------------------


def _decide(
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
        players = _seat_names(next(iter(games))) if len(games) == 1 else []
        form = DisputeDecisionForm(
            request.POST if "apply" in request.POST else None, players=players
        )
        if form.is_bound and _decide(self, request, disputes, form):
            return None
        return _action_page(
            self,
            request,
            queryset,
            "Decide disputes",
            "admin/games/dispute/decide.html",
            form=form,
            disputes=disputes,
        )


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
