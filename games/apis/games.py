"""Verifying and storing records, and reading stored games: ``/api/verify/``, ``/api/games/``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.http import HttpResponse, StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import Rejected
from core.exports import csv_lines, export_response, json_lines
from core.openapi import FINDINGS, page_of, page_parameters, text_type, typed
from core.pagination import SizedPages
from core.requests import account, body_read
from games.apis.common import GameSummarySerializer, number
from games.apis.replays import ANY_REPLAY_STATE
from games.apis.reports import ANY_REPORT, GAME_FINDINGS, GAME_REPORT
from games.models import Game, GameRecord, Visibility
from games.selectors import game_get, game_record_text
from replay import Family
from uploads.selectors import upload_game_list
from uploads.services import upload_create
from uploads.tasks import WORKERS
from verification.models import Finding, Report, Stored
from verification.poker_selectors import poker_state_data
from verification.rummy_selectors import rummy_state_data
from verification.selectors import game_state
from verification.services.limits import record_limits_check
from verification.services.records import game_store, record_check, record_read

#: What ``games.selectors.UtcIsoDateTimeField`` reads: a date and time, or a date alone.
DATE_OR_DATE_TIME = {
    "anyOf": [{"type": "string", "format": "date-time"}, {"type": "string", "format": "date"}]
}
#: ``games.selectors.GameFilter`` as the schema states it; JSON Schema cannot relate two
#: parameters, so the order of a range is stated in words.
GAME_FILTERS = [
    OpenApiParameter(
        "player",
        text_type(),
        description="a player's id, or name in any case (aliases count); "
        "a name or id of no player is a 400",
    ),
    OpenApiParameter(
        "ruleset",
        text_type(),
        description="a preset or a stored ruleset's name; any other is a 400",
    ),
    OpenApiParameter(
        "family", str, enum=[f.value for f in Family], description="whose rules the games are"
    ),
    OpenApiParameter("verdict", str, enum=["malformed", "illegal", "mismatch", "verified"]),
    OpenApiParameter("status", str, enum=["verified", "flagged", "disputed", "resolved"]),
    OpenApiParameter(
        "played_from",
        DATE_OR_DATE_TIME,
        description="ISO 8601, inclusive (a date alone from its start); not after played_to",
    ),
    OpenApiParameter(
        "played_to",
        DATE_OR_DATE_TIME,
        description=(
            "ISO 8601, inclusive (a date alone to its end); not before played_from (a 400)"
        ),
    ),
    OpenApiParameter(
        "upload",
        int,
        description="only the games stored from this upload of yours (a 400 if it is not)",
    ),
]
RECORD_BODY = {"application/json": OpenApiTypes.OBJECT, "text/plain": OpenApiTypes.STR}


def game_or_404(request: Request, game_id: int) -> Game:
    game = game_get(user=request.user, game_id=game_id)
    if game is None:
        raise NotFound(f"no game {game_id}")
    return game


class VerifyApi(APIView):
    """Verify one record without storing it: anyone may, and any body gets a report."""

    permission_classes = (AllowAny,)
    throttle_scope = "verify"

    @extend_schema(
        request=RECORD_BODY,
        responses={200: ANY_REPORT, 413: FINDINGS},
        summary="Verify a record without storing it",
        description="The body is the record (JSON). The answer is the report of its format's "
        "family: docs/format.md's for raspis/1 (and a format no family knows), docs/rummy.md's "
        "for raspis-rummy/1, docs/poker-format.md's for raspis-poker/1; verdict malformed when "
        "the body is not a record.",
    )
    def post(self, request: Request) -> Response:
        return Response(record_check(data=body_read(request)))


class GameDetailSerializer(GameSummarySerializer):
    record_url = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField()
    findings = serializers.SerializerMethodField()
    versions = serializers.SerializerMethodField()

    def get_record_url(self, game: Game) -> str:
        return reverse("game-record", args=[game.pk])

    @extend_schema_field(GAME_REPORT)
    def get_report(self, game: Game) -> dict[str, Any] | None:
        report = Report.objects.filter(game=game, current=True).first()
        return None if report is None else report.as_dict()

    @extend_schema_field(GAME_FINDINGS)
    def get_findings(self, game: Game) -> list[dict[str, Any]]:
        rows = Finding.objects.filter(game=game, report__current=True).order_by("pk")
        return [row.to_dict(game.family) for row in rows]

    @extend_schema_field(
        inline_serializer(
            "GameVersion",
            {
                "sha256": serializers.CharField(),
                "current": serializers.BooleanField(),
                "created_at": serializers.DateTimeField(),
            },
            many=True,
        )
    )
    def get_versions(self, game: Game) -> list[dict[str, Any]]:
        records = GameRecord.objects.filter(game=game).order_by("pk")
        return [
            {"sha256": r.sha256, "current": r.current, "created_at": r.created_at}
            for r in records.only("sha256", "current", "created_at")
        ]


class GamesApi(APIView):
    """``GET`` lists visible games (filtered, paginated); ``POST`` stores and verifies a record.

    Two operations share the URL, so this view holds both; each has its own serializers.
    """

    throttle_scope = "upload"

    @extend_schema_serializer(component_name="GameCreateInput")
    class CreateInputSerializer(serializers.Serializer[Any]):
        visibility = serializers.ChoiceField(choices=Visibility.choices, default="public")

    @extend_schema_serializer(component_name="GameCreateOutput")
    class CreateOutputSerializer(serializers.Serializer[Any]):
        duplicate = serializers.BooleanField()
        replaced = serializers.BooleanField()
        game = GameSummarySerializer()
        report = typed(ANY_REPORT, serializers.JSONField)

    @extend_schema(
        parameters=[*GAME_FILTERS, *page_parameters(SizedPages)],
        responses={
            200: page_of(GameSummarySerializer, "GameSummary"),
            400: FINDINGS,
            404: FINDINGS,
        },
        summary="List games",
        operation_id="games_list",
    )
    def get(self, request: Request) -> Response:
        games = upload_game_list(user=request.user, filters=request.query_params)
        paginator = SizedPages()
        page = paginator.paginate_queryset(games, request, view=self)
        data = GameSummarySerializer(page, many=True).data
        return paginator.get_paginated_response(data)

    @extend_schema(
        request=RECORD_BODY,
        parameters=[CreateInputSerializer],
        responses={
            201: CreateOutputSerializer,
            200: CreateOutputSerializer,
            202: inline_serializer(
                "UploadAccepted",
                {"upload": serializers.IntegerField(), "url": serializers.CharField()},
            ),
            400: FINDINGS,
            413: FINDINGS,
        },
        summary="Store and verify one record",
        description="A record up to RASPIS_SYNC_RECORD_MAX_BYTES is verified now (201, or "
        "200 with duplicate or replaced true); a larger one becomes an upload (202).",
    )
    def post(self, request: Request) -> Response:
        options = self.CreateInputSerializer(data=request.query_params)
        options.is_valid(raise_exception=True)
        visibility = options.validated_data["visibility"]
        data = body_read(request)
        record_limits_check(size=len(data), value=None)
        if len(data) > settings.RASPIS_SYNC_RECORD_MAX_BYTES:
            upload = upload_create(
                uploaded_by=account(request),
                data=data,
                filename="record.json",
                visibility=visibility,
                workers=WORKERS,
            )
            url = reverse("upload-detail", args=[upload.pk])
            return Response({"upload": upload.pk, "url": url}, status=status.HTTP_202_ACCEPTED)
        text, value = record_read(data=data)
        outcome = game_store(
            text=text, value=value, uploaded_by=account(request), visibility=visibility
        )
        if outcome.kind == Stored.REJECTED:
            raise Rejected(outcome.findings)
        # A duplicate is only ever of a game the uploader may see (``records_store``).
        game = Game.objects.get(pk=outcome.game_id or 0)
        body = {
            "duplicate": outcome.kind == Stored.DUPLICATE,
            "replaced": outcome.kind == Stored.REPLACED,
            "game": game,
            "report": Report.objects.get(game=game, current=True).as_dict(),
        }
        code = status.HTTP_201_CREATED if outcome.kind == Stored.STORED else status.HTTP_200_OK
        return Response(self.CreateOutputSerializer(body).data, status=code)


class GameDetailApi(APIView):
    @extend_schema(responses={200: GameDetailSerializer, 404: FINDINGS}, summary="Read a game")
    def get(self, request: Request, game_id: int) -> Response:
        return Response(GameDetailSerializer(game_or_404(request, game_id)).data)


class GameRecordApi(APIView):
    @extend_schema(
        responses={(200, "application/json"): OpenApiTypes.OBJECT, 404: FINDINGS},
        summary="The record as uploaded, byte for byte",
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        text = game_record_text(game=game_or_404(request, game_id))
        return HttpResponse(text.encode("utf-8"), content_type="application/json")


def _count(least: int) -> dict[str, Any]:
    """The schema of a place in a game given in the query: a whole number from ``least``."""
    return {"type": "integer", "minimum": least}


class GameReplayApi(APIView):
    """The table at one moment, in the game's family's terms: a trick-taking game's hands
    left, trick so far, bids, taken and running totals (``deal``, ``trick``, ``play``); a
    rummy deal's melds, pile, stock and hands after a turn (``deal``, ``turn``); a poker
    hand's seats, cards, bets and pot at a stage and action (``hand``, ``stage``,
    ``action``)."""

    @extend_schema_serializer(component_name="GameReplayInput")
    class InputSerializer(serializers.Serializer[Any]):
        deal = serializers.IntegerField(min_value=1)
        trick = serializers.IntegerField(min_value=1, required=False)
        play = serializers.IntegerField(
            min_value=0, required=False, help_text="needs trick; 0 is before its first play"
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if "play" in attrs and "trick" not in attrs:
                raise serializers.ValidationError({"play": "a play needs its trick"})
            return attrs

    class RummyInputSerializer(serializers.Serializer[Any]):
        deal = serializers.IntegerField(min_value=1)
        turn = serializers.IntegerField(min_value=0, required=False)

    class PokerInputSerializer(serializers.Serializer[Any]):
        hand = serializers.IntegerField(min_value=1)
        stage = serializers.IntegerField(min_value=1, required=False)
        action = serializers.IntegerField(min_value=0, required=False)

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if "action" in attrs and "stage" not in attrs:
                raise serializers.ValidationError({"action": "an action needs its stage"})
            return attrs

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "deal", _count(1), description="a trick-taking or rummy game's deal (needed there)"
            ),
            OpenApiParameter("trick", _count(1), description="trick-taking"),
            OpenApiParameter(
                "play", _count(0), description="trick-taking: needs trick; 0 before it"
            ),
            OpenApiParameter(
                "turn", _count(0), description="rummy: 0 as dealt; none: the deal's end"
            ),
            OpenApiParameter("hand", _count(1), description="poker: the hand (needed there)"),
            OpenApiParameter("stage", _count(1), description="poker: none: the hand's end"),
            OpenApiParameter("action", _count(0), description="poker: needs stage; 0 its start"),
        ],
        responses={200: ANY_REPLAY_STATE, 400: FINDINGS, 404: FINDINGS},
        summary="Replay a game to one moment",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(request, game_id)
        if game.family == Family.RUMMY:
            rummy = self.RummyInputSerializer(data=request.query_params)
            rummy.is_valid(raise_exception=True)
            moment = {"turn": None, **rummy.validated_data}
            return Response(rummy_state_data(game=game, **moment))
        if game.family == Family.POKER:
            poker = self.PokerInputSerializer(data=request.query_params)
            poker.is_valid(raise_exception=True)
            where = {"stage": None, "action": None, **poker.validated_data}
            return Response(poker_state_data(game=game, **where))
        params = self.InputSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        return Response(game_state(game=game, **params.validated_data))


class GameExportApi(APIView):
    """Stored records as JSON Lines, filtered like the list; streamed, so any size works.

    A record whose text spans lines is written on one line, its line breaks turned into
    spaces: JSON allows them only between values, so every value is kept as written
    (``/record/`` gives the exact text). A byte order mark and spaces before it are left out.
    """

    @extend_schema(
        parameters=GAME_FILTERS,
        responses={(200, "application/x-ndjson"): OpenApiTypes.STR, 400: FINDINGS},
        summary="Export records as JSON Lines",
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        games = upload_game_list(user=request.user, filters=request.query_params)
        texts = (
            GameRecord.objects.filter(current=True, game__in=games.values("pk"))
            .order_by("game_id")
            .values_list("text", flat=True)
        )
        response = StreamingHttpResponse(_lines(texts.iterator(chunk_size=500)))
        response["Content-Type"] = "application/x-ndjson; charset=utf-8"
        response["Content-Disposition"] = 'attachment; filename="games.jsonl"'
        return response


def _lines(texts: Iterator[str]) -> Iterator[bytes]:
    for text in texts:
        one_line = text.lstrip("\ufeff \t\r\n").replace("\r", " ").replace("\n", " ")
        yield one_line.encode("utf-8") + b"\n"


#: The columns of a game in an export of totals; CSV adds a seat's to each, one line a seat.
GAME_COLUMNS = ("game", "played_at", "ruleset", "verdict", "status", "players", "deals")
SEAT_COLUMNS = ("seat", "player_id", "player", "total", "place", "winner")


class GameTotalsExportApi(APIView):
    """Games with their totals, filtered like the list, for a spreadsheet (CSV, a line per
    seat) or a script (JSON Lines, a game a line with its seats); streamed.

    The ruleset is the stored ruleset's name when the record names one, else its preset.
    """

    @extend_schema(
        parameters=GAME_FILTERS,
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/x-ndjson"): OpenApiTypes.STR,
            400: FINDINGS,
        },
        summary="Export games with their totals as CSV or JSON Lines",
    )
    def get(self, request: Request, kind: str) -> StreamingHttpResponse:
        games = upload_game_list(user=request.user, filters=request.query_params).order_by("pk")
        rows = (_game_row(game) for game in games.iterator(chunk_size=500))
        if kind == "csv":
            seats = ({**game, **seat} for game in rows for seat in game.pop("seats"))
            lines = csv_lines((*GAME_COLUMNS, *SEAT_COLUMNS), seats)
        else:
            lines = json_lines(rows)
        return export_response(kind, lines, filename="games")


def _game_row(game: Game) -> dict[str, Any]:
    return {
        "game": game.pk,
        "played_at": game.played_at,
        "ruleset": game.ruleset_name or game.ruleset_preset,
        "verdict": game.verdict,
        "status": game.status,
        "players": game.players_count,
        "deals": game.deals_count,
        "seats": [
            {
                "seat": seat.seat,
                "player_id": seat.player_id,
                "player": seat.name,
                "total": number(seat.total),
                "place": seat.place,
                "winner": seat.winner,
            }
            for seat in game.seats.all()
        ],
    }
