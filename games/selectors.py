"""Reads of games, their records, players, stored rulesets and disputes, with who may see
what decided in one place.

A public game is visible to everyone; a private one only to its uploader and staff. Disputes
follow their game, and a user always sees the disputes they opened.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Count, DateField, F, Min, Q, QuerySet
from django.db.models.functions import TruncWeek
from django.utils import timezone

from core.access import is_staff
from core.filters import filtered
from games.models import (
    FAMILIES,
    VERDICTS,
    Dispute,
    Game,
    GameConfirmation,
    GameRecord,
    GameStatus,
    Player,
    PlayerAlias,
    StoredRuleset,
    Visibility,
    player_key,
)
from replay import PRESET_FAMILIES

if TYPE_CHECKING:
    from core.access import User


def game_visible(*, user: User) -> QuerySet[Game]:
    games = Game.objects.all()
    if is_staff(user):
        return games
    public = Q(visibility=Visibility.PUBLIC)
    if user.is_authenticated:
        return games.filter(public | Q(uploaded_by=user))
    return games.filter(public)


REVIEW_STATUSES = (GameStatus.FLAGGED, GameStatus.DISPUTED)
REVIEW_ORDER = ("created_at", "id")


def game_review_queue(*, games: QuerySet[Game] | None = None) -> QuerySet[Game]:
    """The games a reviewer has to look at (flagged or disputed), the longest waiting first."""
    games = Game.objects.all() if games is None else games
    return games.filter(status__in=REVIEW_STATUSES).order_by(*REVIEW_ORDER)


@dataclass(frozen=True, slots=True)
class Dashboard:
    """The state of the service at a glance, for the admin's index."""

    weeks: list[tuple[dt.date, int]]  #: games stored per week (Monday), oldest first
    verdicts: list[tuple[str, int]]  #: every verdict, worst first, with its games
    queue: int  #: games waiting for a reviewer
    oldest: dt.datetime | None  #: when the first of them was stored
    now: dt.datetime

    @property
    def oldest_wait(self) -> dt.timedelta | None:
        return None if self.oldest is None else self.now - self.oldest


def game_dashboard(*, weeks: int = 12, now: dt.datetime | None = None) -> Dashboard:
    """Games stored per week over the last ``weeks`` (empty weeks included), the verdict mix,
    and the review queue with its oldest wait: three queries."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    first = today - dt.timedelta(days=today.weekday() + 7 * (weeks - 1))
    start = timezone.make_aware(dt.datetime.combine(first, dt.time.min))
    counted = dict(
        Game.objects.filter(created_at__gte=start)
        .annotate(week=TruncWeek("created_at", output_field=DateField()))
        .order_by()
        .values("week")
        .annotate(n=Count("pk"))
        .values_list("week", "n")
    )
    mix = dict(
        Game.objects.order_by()
        .values("verdict")
        .annotate(n=Count("pk"))
        .values_list("verdict", "n")
    )
    queue = game_review_queue().aggregate(n=Count("pk"), oldest=Min("created_at"))
    mondays = [first + dt.timedelta(weeks=i) for i in range(weeks)]
    return Dashboard(
        weeks=[(day, counted.get(day, 0)) for day in mondays],
        verdicts=[(v, mix.get(v, 0)) for v, _ in VERDICTS],
        queue=queue["n"],
        oldest=queue["oldest"],
        now=now,
    )


def player_find(*, name: str) -> Player | None:
    """The player a name stands for, through aliases; None if no record named them."""
    key = player_key(name)
    alias = PlayerAlias.objects.filter(key=key).select_related("player").first()
    if alias is not None:
        return alias.player
    return Player.objects.filter(key=key).first()


class UtcIsoDateTimeField(django_filters.fields.IsoDateTimeField):
    """An ISO 8601 date and time, in UTC, where the database compares it: one that does not
    exist in UTC (``9999-12-31T23:59:59-01:00``) is a 400 rather than an ``OverflowError``,
    and PostgreSQL, which takes no offset past 15:59, never sees the one given (``+16:43``).

    A date alone is the whole day, in the service's time zone: its first instant, or at the
    end of a range (``day_end``) its last, so that ``played_to=2026-11-20`` includes the
    games of that evening rather than stopping at its midnight.
    """

    day_end = False

    def to_python(self, value: Any) -> dt.datetime | None:
        day = _a_date_alone(value)
        if day is not None:
            time = dt.time.max if self.day_end else dt.time.min
            when = timezone.make_aware(dt.datetime.combine(day, time))
        else:
            when = super().to_python(value)
        if when is None:
            return None
        try:
            return when.astimezone(dt.UTC)
        except OverflowError:
            raise ValidationError("the date and time is out of range", code="invalid") from None


def _a_date_alone(value: Any) -> dt.date | None:
    """The date of a value that is ``YYYY-MM-DD`` and nothing more, else None."""
    if not isinstance(value, str) or len(value.strip()) != 10:
        return None
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        return None


class UtcIsoDayEndField(UtcIsoDateTimeField):
    day_end = True


class UtcIsoDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = UtcIsoDateTimeField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("error_messages", {"invalid": DATE_FORM})
        super().__init__(*args, **kwargs)


class UtcIsoDayEndFilter(UtcIsoDateTimeFilter):
    """The end of a range of dates played: a date alone includes its whole day."""

    field_class = UtcIsoDayEndField


#: What a date filter's error says of the form it expects.
DATE_FORM = "expected ISO 8601: a date (2026-11-20) or a date and time (2026-11-20T19:00:00Z)"


def player_of(value: str) -> Player | None:
    """The player a filter names: a run of digits is a player's id (a merged player stands
    for the one it was merged into), anything else a name, through aliases. A player whose
    name is all digits is found by name when no player has that id."""
    text = value.strip()
    if text.isdigit() and len(text) <= 18:
        player = Player.objects.filter(pk=int(text)).select_related("merged_into").first()
        if player is not None:
            return player.merged_into or player
    return player_find(name=text)


def ruleset_known(name: str) -> bool:
    """Whether ``name`` is a preset (of any family) or a stored ruleset: what a record may
    name."""
    return name in PRESET_FAMILIES or StoredRuleset.objects.filter(name=name).exists()


class _GameFilterForm(forms.Form):
    """Values that select nothing because they name nothing are mistakes (a misspelt name,
    a ruleset that does not exist, a range with its ends swapped), refused as such rather
    than answered with an empty list. The player a value names replaces it, for the filter."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("played_from"), data.get("played_to")
        if start is not None and end is not None and end < start:
            self.add_error("played_to", "played_to is before played_from")
        if data.get("player"):
            player = player_of(data["player"])
            if player is None:
                self.add_error("player", f"no player has the name or id {data['player']!r}")
            else:
                data["player"] = player
        if data.get("ruleset") and not ruleset_known(data["ruleset"]):
            self.add_error(
                "ruleset", f"{data['ruleset']!r} is neither a preset nor a stored ruleset"
            )
        return data


class GameFilter(django_filters.FilterSet):
    """The filters of ``GET /api/games/`` and ``GET /api/games/export.jsonl``."""

    player = django_filters.CharFilter(method="filter_player", help_text="a player's name or id")
    ruleset = django_filters.CharFilter(
        method="filter_ruleset", help_text="a preset or a stored ruleset's name"
    )
    family = django_filters.ChoiceFilter(choices=FAMILIES)
    verdict = django_filters.ChoiceFilter(choices=VERDICTS)
    status = django_filters.ChoiceFilter(choices=GameStatus.choices)
    played_from = UtcIsoDateTimeFilter(
        field_name="played_at", lookup_expr="gte", help_text="ISO 8601, inclusive"
    )
    played_to = UtcIsoDayEndFilter(
        field_name="played_at", lookup_expr="lte", help_text="ISO 8601, inclusive"
    )

    class Meta:
        model = Game
        fields = ("player", "family", "ruleset", "verdict", "status", "played_from", "played_to")
        form = _GameFilterForm

    def filter_player(self, queryset: QuerySet[Game], name: str, value: Player) -> QuerySet[Game]:
        return queryset.filter(seats__player=value).distinct()

    def filter_ruleset(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        return queryset.filter(Q(ruleset_name=value) | Q(ruleset_preset=value, ruleset_name=""))


def game_list(*, user: User, filters: Any = None) -> QuerySet[Game]:
    """Visible games, filtered by query parameters (``GameFilter``); bad ones are rejected."""
    games = game_visible(user=user).prefetch_related("seats")
    return games if filters is None else filtered(GameFilter, filters, games)


def game_get(*, user: User, game_id: int) -> Game | None:
    return game_visible(user=user).filter(pk=game_id).first()


def game_record_text(*, game: Game) -> str:
    """The exact text of the game's current record."""
    return GameRecord.objects.values_list("text", flat=True).get(game=game, current=True)


def stored_rulesets() -> dict[str, dict[str, Any]]:
    """The service's named rulesets as the engine's ``verify()`` takes them."""
    return {
        name: {"preset": preset, "options": options}
        for name, preset, options in StoredRuleset.objects.values_list("name", "preset", "options")
    }


def dispute_list(*, user: User) -> QuerySet[Dispute]:
    disputes = Dispute.objects.select_related("game", "opened_by", "decided_by")
    if is_staff(user):
        return disputes
    visible = Q(game__visibility=Visibility.PUBLIC)
    if user.is_authenticated:
        visible |= Q(opened_by=user) | Q(game__uploaded_by=user)
    return disputes.filter(visible)


def dispute_get(*, user: User, dispute_id: int) -> Dispute | None:
    return dispute_list(user=user).filter(pk=dispute_id).first()


def player_merged_into(*, player_id: int) -> int | None:
    """The player a merged name now belongs to (``player_merge``); None if not merged."""
    return Player.objects.filter(pk=player_id).values_list("merged_into_id", flat=True).first()


def games_vouched(*, game_ids: Sequence[int]) -> set[int]:
    """The games among ``game_ids`` that someone other than their uploader stands behind
    (docs/trust.md): uploaded by staff or by an organiser of a club staff trust, or confirmed
    by an account other than the uploader's whose approved link is to a player seated in
    the game."""
    trusted = Q(uploaded_by__is_staff=True) | Q(uploaded_by__clubs__trusted_by__isnull=False)
    uploaded = Game.objects.filter(trusted, pk__in=game_ids).values_list("pk", flat=True)
    confirmed = (
        GameConfirmation.objects.filter(
            game_id__in=game_ids,
            user__player_link__approved_by__isnull=False,
            game__seats__player=F("user__player_link__player"),
        )
        .exclude(user=F("game__uploaded_by"))
        .values_list("game_id", flat=True)
    )
    return set(uploaded) | set(confirmed)
