"""Read-only API of players, statistics, ratings and leaderboards, mounted under ``/api/``.

Every answer comes from precomputed rows (``stats.selectors``): one or two queries. Each
carries an ``ETag`` (and ``Last-Modified`` where the rows have a time) and ``Cache-Control:
no-cache``, so clients revalidate with ``If-None-Match`` / ``If-Modified-Since`` and get a
304 without a body when nothing changed. Django weighs the validators as RFC 9110 §13.2.2
says (``get_conditional_response``), from the rows already read, before the answer is built.
The figures are built as plain data by the selectors (the statistics without a range are
even stored rendered), which is what the hot path can afford; the output serializers
describe that shape for the OpenAPI schema, and the tests check the answers against them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.http import HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.exports import csv_lines, export_response, json_lines
from core.openapi import FINDINGS, page_of, page_parameters
from core.pagination import SizedPages
from games.models import Player
from stats import selectors
from stats.selectors import Freshness

NOT_MODIFIED = OpenApiResponse(description="Not modified: the ETag or date still holds")
#: The answers of a conditional request beside the body: fresh (304), or a failed precondition.
CONDITIONAL = {304: NOT_MODIFIED, 412: FINDINGS}
MONTH = r"^\d{4}-(0[1-9]|1[0-2])$"
MONTH_FORM = "expected a month as YYYY-MM, e.g. 2026-11"


class PreconditionFailed(APIException):
    """A client's ``If-Match`` / ``If-Unmodified-Since`` no longer holds: a 412 with findings,
    as every refusal of the API has, rather than Django's empty one."""

    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = "the answer changed since the ETag or date of the request's precondition"


def answer(request: Request, fresh: Freshness, build: Any) -> HttpResponseBase:
    """304 when the client's copy is fresh, else ``build()`` with validators attached."""
    return _conditional(request, fresh, lambda: Response(build()))


def answer_json(request: Request, fresh: Freshness, body: str) -> HttpResponseBase:
    """``answer`` for a body stored already rendered: JSON whatever the client accepts."""
    return _conditional(request, fresh, lambda: HttpResponse(body, content_type="application/json"))


def _conditional(
    request: Request, fresh: Freshness, respond: Callable[[], HttpResponseBase]
) -> HttpResponseBase:
    modified = None if fresh.last_modified is None else int(fresh.last_modified.timestamp())
    early = get_conditional_response(request, etag=fresh.etag, last_modified=modified)
    if early is not None and early.status_code == status.HTTP_412_PRECONDITION_FAILED:
        raise PreconditionFailed
    response = respond() if early is None else early
    response["ETag"] = fresh.etag
    if fresh.last_modified is not None:
        response["Last-Modified"] = http_date(fresh.last_modified.timestamp())
    response["Cache-Control"] = "no-cache"
    return response


def validated(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# -- shapes --------------------------------------------------------------------------------

#: What every rate and percentile is: one unit for all, so that figures compare at a glance.
FRACTION = "a fraction from 0 to 1 (0.25 is a quarter), to 4 places"


def rate(words: str = "") -> serializers.FloatField:
    """A rate: null when there is nothing to count."""
    text = f"{words}; {FRACTION}" if words else FRACTION
    return serializers.FloatField(allow_null=True, min_value=0, max_value=1, help_text=text)


def skill(words: str) -> serializers.FloatField:
    """A figure of an OpenSkill rating, as answers round it."""
    return serializers.FloatField(help_text=f"{words}; to 3 places")


def percentile(words: str = "") -> serializers.FloatField:
    text = "a fraction from 0 to 1, to 3 places" + (f"; {words}" if words else "")
    return serializers.FloatField(required=False, min_value=0, max_value=1, help_text=text)


class PlayerRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)


class RatingSerializer(serializers.Serializer[Any]):
    mu = skill("the rating's mean")
    sigma = skill("its uncertainty")
    ordinal = skill("μ − 3σ, which ranks")
    games = serializers.IntegerField()
    last_played = serializers.DateTimeField()


class PercentilesSerializer(serializers.Serializer[Any]):
    """Per figure, the share of the players past the games gate who are below the player
    (ties count half), a fraction from 0 to 1 like every rate; absent below the gate."""

    win_rate = percentile()
    average_total = percentile("within a ruleset only")
    exact_rate = percentile()
    points_per_deal = percentile()
    rating = percentile("of the rating's ordinal, within a ruleset only")


class PlaceSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    games = serializers.IntegerField()


class SettlementSerializer(serializers.Serializer[Any]):
    games = serializers.IntegerField(help_text="games with meta.point_value")
    balance = serializers.FloatField(help_text="won (+) or paid (−), in money")


class TriedMadeSerializer(serializers.Serializer[Any]):
    tried = serializers.IntegerField()
    made = serializers.IntegerField()


class HookSerializer(serializers.Serializer[Any]):
    deals = serializers.IntegerField(help_text="deals bid last under the hook rule")
    made = serializers.IntegerField()


class DifferenceSerializer(serializers.Serializer[Any]):
    difference = serializers.IntegerField(help_text="bid − taken")
    deals = serializers.IntegerField()


class AccuracySerializer(serializers.Serializer[Any]):
    """How often bids were made exactly, within one slice of the deals."""

    deals = serializers.IntegerField()
    exact = serializers.IntegerField()
    exact_rate = rate()


class ByCardsSerializer(AccuracySerializer):
    cards = serializers.IntegerField()


class ByKindSerializer(AccuracySerializer):
    kind = serializers.CharField()


class BiddingSerializer(serializers.Serializer[Any]):
    deals = serializers.IntegerField(help_text="deals with bids")
    exact = serializers.IntegerField()
    over = serializers.IntegerField()
    under = serializers.IntegerField()
    exact_rate = rate()
    over_rate = rate()
    under_rate = rate()
    passes = TriedMadeSerializer()
    blind = TriedMadeSerializer(help_text="blind bids outside dark deals")
    hook = HookSerializer()
    difference = DifferenceSerializer(many=True)
    by_cards = ByCardsSerializer(many=True)
    by_kind = ByKindSerializer(many=True)


class KindPointsSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField()
    deals = serializers.IntegerField()
    points = serializers.FloatField()
    per_deal = serializers.FloatField(allow_null=True)


class PointsSerializer(serializers.Serializer[Any]):
    deals = serializers.IntegerField()
    points = serializers.FloatField()
    per_deal = serializers.FloatField(allow_null=True)
    from_made_bids = serializers.FloatField()
    made_bids_share = rate("points of made bids / all points won (positive scores)")
    by_kind = KindPointsSerializer(many=True)


class DeclarationsSerializer(serializers.Serializer[Any]):
    high = serializers.IntegerField()
    low = serializers.IntegerField()
    plain = serializers.IntegerField()
    lead_highest = serializers.IntegerField()
    lead_lowest = serializers.IntegerField()
    other = serializers.IntegerField()


class JokersSerializer(serializers.Serializer[Any]):
    deals_held = serializers.IntegerField()
    held = serializers.IntegerField()
    declarations = DeclarationsSerializer()
    demands = serializers.IntegerField()
    tricks_won = serializers.IntegerField()


class RummySerializer(serializers.Serializer[Any]):
    deals = serializers.IntegerField()
    points = serializers.FloatField(help_text="the deals' points: the lowest total wins")
    per_deal = serializers.FloatField(allow_null=True)
    outs = serializers.IntegerField(help_text="deals the player went out in")
    out_rate = rate()
    out_round = serializers.FloatField(
        allow_null=True, help_text="the average round of going out, of deals replayed in full"
    )
    out_on_jokers = serializers.IntegerField(help_text="outs with jokers in the last discard")
    openings = serializers.IntegerField(help_text="deals replayed in full it opened in")
    opening_rate = rate("openings / deals replayed in full")
    opening_round = serializers.FloatField(allow_null=True)
    opening_worth = serializers.FloatField(allow_null=True, help_text="the opening melds' worth")
    left_points = serializers.FloatField(help_text="points left in hand when another went out")
    left_per_deal = serializers.FloatField(allow_null=True)


class CategoryCountSerializer(serializers.Serializer[Any]):
    category = serializers.CharField()
    hands = serializers.IntegerField()


class FoldCountSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField()
    hands = serializers.IntegerField()


class PokerSerializer(serializers.Serializer[Any]):
    hands = serializers.IntegerField(help_text="hands dealt in")
    won = serializers.IntegerField(help_text="hands it won a pot in, or was paid")
    win_rate = rate()
    net = serializers.IntegerField(help_text="chips (club) or units (casino) won, net")
    net_per_hand = serializers.FloatField()
    showdowns = serializers.IntegerField()
    showdowns_won = serializers.IntegerField()
    showdown_win_rate = rate()
    by_category = CategoryCountSerializer(many=True, help_text="hands shown down, best first")
    folds = FoldCountSerializer(many=True, help_text="folds by stage")


class FindingCountSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    count = serializers.IntegerField()
    per_game = serializers.FloatField(allow_null=True)


class MonthSerializer(serializers.Serializer[Any]):
    month = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = rate()
    average_total = serializers.FloatField(allow_null=True)
    exact_rate = rate()
    points_per_deal = serializers.FloatField(allow_null=True)


class RulesetSummarySerializer(serializers.Serializer[Any]):
    ruleset = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = rate()
    average_total = serializers.FloatField(allow_null=True)
    best_total = serializers.FloatField(allow_null=True)
    rating = RatingSerializer(allow_null=True)
    percentiles = PercentilesSerializer()


class RatingEntrySerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    played_at = serializers.DateTimeField()
    mu = skill("the rating's mean")
    sigma = skill("its uncertainty")
    ordinal = skill("μ − 3σ, which ranks")
    games = serializers.IntegerField()


class VersusSideSerializer(serializers.Serializer[Any]):
    games = serializers.IntegerField(help_text="games at one table")
    ahead = serializers.IntegerField(help_text="games the player finished above")
    behind = serializers.IntegerField()
    ties = serializers.IntegerField()
    ahead_rate = rate()
    difference = serializers.FloatField(help_text="Σ (player's total − opponent's)")
    average_difference = serializers.FloatField(allow_null=True)


class VersusRulesetSerializer(VersusSideSerializer):
    ruleset = serializers.CharField()


class GatesSerializer(serializers.Serializer[Any]):
    min_games = serializers.IntegerField()
    max_sigma = serializers.FloatField()
    active_days = serializers.IntegerField()


class LeaderboardEntrySerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = PlayerRefSerializer()
    mu = skill("the rating's mean")
    sigma = skill("its uncertainty")
    ordinal = skill("μ − 3σ, which ranks")
    games = serializers.IntegerField(
        help_text="rated games: those someone other than their uploader stands behind "
        "(docs/trust.md)"
    )
    last_played = serializers.DateTimeField()


# -- players -------------------------------------------------------------------------------


#: The largest id a database row can have (a signed 64-bit integer). The URL takes any run
#: of digits, and SQLite cannot even compare a larger number with a column.
MAX_ID = 2**63 - 1


class PlayerApi(APIView):
    """A view of one player (``player_id``, and ``opponent_id`` if any): an id past any row's
    is a 404 before a query is made."""

    permission_classes = (AllowAny,)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        for key in ("player_id", "opponent_id"):
            if kwargs.get(key, 0) > MAX_ID:
                raise NotFound(f"no player {kwargs[key]} with counted games")


class PlayerListApi(APIView):
    """Players with at least one counted game, by name."""

    permission_classes = (AllowAny,)

    class InputSerializer(serializers.Serializer[Any]):
        search = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema_serializer(component_name="PlayerListItem")
    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.IntegerField(source="player_id")
        name = serializers.CharField(source="player.name")
        games = serializers.IntegerField()
        wins = serializers.IntegerField()

    @extend_schema(
        parameters=[InputSerializer, *page_parameters(SizedPages)],
        responses={
            200: page_of(OutputSerializer, "PlayerListItem"),
            **CONDITIONAL,
            400: FINDINGS,
            404: FINDINGS,
        },
        summary="List players",
        operation_id="players_list",
        description="Players known to the statistics (a counted public game), searched by "
        "a part of their name.",
    )
    def get(self, request: Request) -> HttpResponseBase:
        search = validated(self.InputSerializer, request.query_params)["search"]
        paginator = SizedPages()
        rows = paginator.paginate_queryset(selectors.player_list(search=search), request, self)
        assert rows is not None and paginator.page is not None
        fresh = selectors.player_list_freshness(
            rows, count=paginator.page.paginator.count, key=request.get_full_path()
        )
        response = answer(
            request,
            fresh,
            lambda: (
                paginator.get_paginated_response(self.OutputSerializer(rows, many=True).data).data
            ),
        )
        return response


class PlayerDetailApi(PlayerApi):
    """A player: overall results, and per ruleset key results and rating (two queries)."""

    permission_classes = (AllowAny,)

    @extend_schema_serializer(component_name="PlayerDetail")
    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        name = serializers.CharField()
        merged_into = serializers.IntegerField(allow_null=True)
        games = serializers.IntegerField()
        wins = serializers.IntegerField()
        win_rate = rate()
        average_total = serializers.FloatField(allow_null=True)
        best_total = serializers.FloatField(allow_null=True)
        percentiles = PercentilesSerializer()
        rulesets = RulesetSummarySerializer(many=True)

    @extend_schema(
        responses={200: OutputSerializer, **CONDITIONAL, 404: FINDINGS},
        summary="Read a player",
    )
    def get(self, request: Request, player_id: int) -> HttpResponseBase:
        detail = selectors.player_detail(player_id=player_id)
        if detail is None:
            raise NotFound(f"no player {player_id} with counted games")
        return answer(
            request,
            detail.fresh,
            lambda: selectors.player_detail_data(player_id=player_id, detail=detail),
        )


class PlayerStatsApi(PlayerApi):
    """A player's statistics, overall or in one ruleset key, all time or a range of months."""

    permission_classes = (AllowAny,)

    class InputSerializer(serializers.Serializer[Any]):
        ruleset = serializers.CharField(
            required=False,
            allow_blank=True,
            default="",
            max_length=100,
            help_text="a preset or stored ruleset name; empty for all",
        )
        since = serializers.RegexField(
            MONTH,
            required=False,
            allow_blank=True,
            default="",
            help_text="first month, YYYY-MM; not after until",
            error_messages={"invalid": MONTH_FORM},
        )
        until = serializers.RegexField(
            MONTH,
            required=False,
            allow_blank=True,
            default="",
            help_text="last month, YYYY-MM; not before since",
            error_messages={"invalid": MONTH_FORM},
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if attrs["since"] and attrs["until"] and attrs["since"] > attrs["until"]:
                raise ValidationError({"until": "until is before since"})
            return attrs

    @extend_schema_serializer(component_name="PlayerStats")
    class OutputSerializer(serializers.Serializer[Any]):
        player = serializers.IntegerField()
        ruleset = serializers.CharField(allow_null=True)
        since = serializers.CharField(allow_null=True)
        until = serializers.CharField(allow_null=True)
        games = serializers.IntegerField()
        wins = serializers.IntegerField(help_text="shared wins included")
        shared_wins = serializers.IntegerField()
        win_rate = rate()
        places = PlaceSerializer(many=True)
        average_total = serializers.FloatField(allow_null=True)
        best_total = serializers.FloatField(allow_null=True)
        settlement = SettlementSerializer()
        bidding = BiddingSerializer()
        points = PointsSerializer()
        jokers = JokersSerializer()
        findings = FindingCountSerializer(many=True, help_text="at this player's seat")
        rummy = RummySerializer(allow_null=True, help_text="of «Джокер» games; null without")
        poker = PokerSerializer(allow_null=True, help_text="of poker games; null without")
        percentiles = PercentilesSerializer(help_text="all time only")
        months = MonthSerializer(many=True, help_text="the trend, month by month")

    @extend_schema(
        parameters=[InputSerializer],
        responses={
            200: OutputSerializer,
            **CONDITIONAL,
            400: FINDINGS,
            404: FINDINGS,
        },
        summary="Read a player's statistics",
    )
    def get(self, request: Request, player_id: int) -> HttpResponseBase:
        params = validated(self.InputSerializer, request.query_params)
        if not params["since"] and not params["until"]:
            cached = selectors.player_stats_body(player_id=player_id, ruleset=params["ruleset"])
            if cached is not None:
                return answer_json(request, cached.fresh, cached.body)
        found = selectors.player_stat_rows(player_id=player_id, **params)
        if not found.rows and not selectors.player_known(player_id=player_id):
            raise NotFound(f"no player {player_id} with counted games")
        return answer(
            request,
            found.fresh,
            lambda: selectors.player_stats_data(player_id=player_id, rows=found.rows, **params),
        )


class PlayerRatingsApi(PlayerApi):
    """A player's ratings per ruleset key, each with its history game by game."""

    permission_classes = (AllowAny,)

    class InputSerializer(serializers.Serializer[Any]):
        ruleset = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema_serializer(component_name="PlayerRating")
    class OutputSerializer(RatingSerializer):
        ruleset = serializers.CharField()
        history = RatingEntrySerializer(many=True)

    @extend_schema(
        parameters=[InputSerializer],
        responses={
            200: OutputSerializer(many=True),
            **CONDITIONAL,
            400: FINDINGS,
            404: FINDINGS,
        },
        summary="Read a player's ratings",
    )
    def get(self, request: Request, player_id: int) -> HttpResponseBase:
        ruleset = validated(self.InputSerializer, request.query_params)["ruleset"]
        ratings = selectors.player_rating_rows(player_id=player_id, ruleset=ruleset)
        if not ratings and not selectors.player_known(player_id=player_id):
            raise NotFound(f"no player {player_id} with counted games")
        fresh = selectors.freshness(
            (player_id, ruleset, [(r["pk"], r["version"]) for r in ratings]),
            (r["updated_at"] for r in ratings),
        )
        return answer(
            request,
            fresh,
            lambda: selectors.player_ratings_data(player_id=player_id, ratings=ratings),
        )


class PlayerVersusApi(PlayerApi):
    """Two players' games at one table, seen from the first player's side."""

    permission_classes = (AllowAny,)

    @extend_schema_serializer(component_name="PlayerVersus")
    class OutputSerializer(VersusSideSerializer):
        player = PlayerRefSerializer()
        opponent = PlayerRefSerializer()
        by_ruleset = VersusRulesetSerializer(many=True)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "opponent_id",
                int,
                OpenApiParameter.PATH,
                description="another player than player_id: a player is not their own opponent",
            )
        ],
        responses={
            200: OutputSerializer,
            **CONDITIONAL,
            400: FINDINGS,
            404: FINDINGS,
        },
        summary="Compare two players head to head",
    )
    def get(self, request: Request, player_id: int, opponent_id: int) -> HttpResponseBase:
        if player_id == opponent_id:
            raise ValidationError({"opponent_id": "a player is not their own opponent"})
        rows = selectors.versus_rows(a=player_id, b=opponent_id)
        if not rows and not all(
            selectors.player_known(player_id=p) for p in (player_id, opponent_id)
        ):
            raise NotFound("both players need counted games")
        fresh = selectors.freshness(
            (player_id, opponent_id, [(r["pk"], r["version"]) for r in rows]),
            (r["updated_at"] for r in rows),
        )
        return answer(
            request, fresh, lambda: selectors.versus_data(a=player_id, b=opponent_id, rows=rows)
        )


class LeaderboardApi(APIView):
    """A ruleset key's leaderboard by rating ordinal, past the gates; or a day's snapshot."""

    permission_classes = (AllowAny,)

    class InputSerializer(serializers.Serializer[Any]):
        date = serializers.DateField(
            required=False,
            allow_null=True,
            default=None,
            help_text="a day's stored snapshot instead of the live ranking",
        )
        limit = serializers.IntegerField(required=False, min_value=1, max_value=1000, default=100)

    @extend_schema_serializer(component_name="Leaderboard")
    class OutputSerializer(serializers.Serializer[Any]):
        ruleset = serializers.CharField()
        date = serializers.DateField(allow_null=True, help_text="null: live")
        gates = GatesSerializer()
        entries = LeaderboardEntrySerializer(many=True)

    @extend_schema(
        parameters=[InputSerializer],
        responses={
            200: OutputSerializer,
            **CONDITIONAL,
            400: FINDINGS,
            404: FINDINGS,
        },
        summary="Read a leaderboard",
    )
    def get(self, request: Request, ruleset: str) -> HttpResponseBase:
        if "\x00" in ruleset:  # no ruleset has one, and PostgreSQL cannot even compare it
            raise NotFound("no leaderboard for a ruleset with a NUL character")
        params = validated(self.InputSerializer, request.query_params)
        date: dt.date | None = params["date"]
        if date is not None:
            snapshot = selectors.leaderboard_snapshot(ruleset=ruleset, date=date)
            if snapshot is None:
                raise NotFound(f"no {ruleset} leaderboard stored for {date}")
            data = {
                "ruleset": ruleset,
                "date": date,
                "gates": snapshot.gates,
                "entries": snapshot.entries[: params["limit"]],
            }
            fresh = selectors.freshness((snapshot.pk, params["limit"]), [snapshot.created_at])
            return answer(request, fresh, lambda: data)
        gates = selectors.leaderboard_gates()
        entries = selectors.leaderboard_rows(ruleset=ruleset, gates=gates, limit=params["limit"])
        data = {"ruleset": ruleset, "date": None, "gates": gates.as_dict(), "entries": entries}
        return answer(request, selectors.freshness((data,), ()), lambda: data)


EXPORT_RESPONSES = {
    (200, "text/csv"): OpenApiTypes.STR,
    (200, "application/x-ndjson"): OpenApiTypes.STR,
}


class PlayerStatsExportApi(PlayerApi):
    """A player's key figures per ruleset key, overall first, with the rating of each: one
    line per key, in CSV for a spreadsheet or JSON Lines for a script."""

    @extend_schema(
        responses={**EXPORT_RESPONSES, 404: FINDINGS},
        summary="Export a player's statistics as CSV or JSON Lines",
        description="Columns: " + ", ".join(selectors.EXPORT_COLUMNS) + ". The overall line "
        "has an empty ruleset and no totals (rulesets score on different scales).",
    )
    def get(self, request: Request, player_id: int, kind: str) -> HttpResponseBase:
        rows = selectors.player_export_rows(player_id=player_id)
        if not rows:
            raise NotFound(f"no player {player_id} with counted games")
        lines = csv_lines(selectors.EXPORT_COLUMNS, rows) if kind == "csv" else json_lines(rows)
        return export_response(kind, lines, filename=f"player-{player_id}")


#: The columns of a leaderboard in CSV; JSON Lines keeps ``player`` an object.
LEADERBOARD_COLUMNS = (
    "rank", "player_id", "player", "mu", "sigma", "ordinal", "games", "last_played",
)  # fmt: skip


class LeaderboardExportApi(APIView):
    """A leaderboard, live or a day's, as CSV or JSON Lines: one line per ranked player."""

    permission_classes = (AllowAny,)

    @extend_schema(
        parameters=[LeaderboardApi.InputSerializer],
        responses={**EXPORT_RESPONSES, 400: FINDINGS, 404: FINDINGS},
        summary="Export a leaderboard as CSV or JSON Lines",
    )
    def get(self, request: Request, ruleset: str, kind: str) -> HttpResponseBase:
        if "\x00" in ruleset:
            raise NotFound("no leaderboard for a ruleset with a NUL character")
        params = validated(LeaderboardApi.InputSerializer, request.query_params)
        entries = leaderboard_entries(ruleset, params["date"], params["limit"])
        if kind == "csv":
            flat = (
                {**e, "player_id": e["player"]["id"], "player": e["player"]["name"]}
                for e in entries
            )
            lines = csv_lines(LEADERBOARD_COLUMNS, flat)
        else:
            lines = json_lines(entries)
        return export_response(kind, lines, filename=f"leaderboard-{ruleset}")


def leaderboard_entries(ruleset: str, date: dt.date | None, limit: int) -> list[dict[str, Any]]:
    """The entries of the live board, or of the day's stored one (a 404 when none is)."""
    if date is None:
        gates = selectors.leaderboard_gates()
        return selectors.leaderboard_rows(ruleset=ruleset, gates=gates, limit=limit)
    snapshot = selectors.leaderboard_snapshot(ruleset=ruleset, date=date)
    if snapshot is None:
        raise NotFound(f"no {ruleset} leaderboard stored for {date}")
    entries: list[dict[str, Any]] = snapshot.entries[:limit]
    return entries


class BenchRowApi(APIView):
    """The baseline of ``bench/stats.py``: one row by primary key, nothing else.

    Routed only with DEBUG or ``RASPIS_BENCH`` set, and kept out of the schema.
    """

    permission_classes = (AllowAny,)

    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        name = serializers.CharField()

    @extend_schema(exclude=True)
    def get(self, request: Request, row_id: int) -> Response:
        row = Player.objects.filter(pk=row_id).values("id", "name").first()
        if row is None:
            raise NotFound(f"no row {row_id}")
        return Response(self.OutputSerializer(row).data)


__all__ = [
    "BenchRowApi",
    "LeaderboardApi",
    "LeaderboardExportApi",
    "PlayerDetailApi",
    "PlayerListApi",
    "PlayerRatingsApi",
    "PlayerStatsApi",
    "PlayerStatsExportApi",
    "PlayerVersusApi",
]
