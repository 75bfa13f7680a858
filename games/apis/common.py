"""What the API views share: reading a raw body within the size limit, the upload throttle,
numbers for JSON, and the output shapes of games that several views return."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import RequestDataTooBig
from django.urls import reverse
from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from config.exceptions import PayloadTooLarge
from games.errors import Rejected
from games.models import Game

#: Room for multipart boundaries and form fields around an uploaded file of the full size.
MULTIPART_OVERHEAD = 64 * 1024


def content_length(request: Request) -> int | None:
    try:
        return int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None


def size_check(request: Request, *, overhead: int = 0) -> None:
    """Refuse (413) a request whose declared length is past the limit, before reading it."""
    limit = settings.RASPIS_MAX_UPLOAD_BYTES
    length = content_length(request)
    if length is not None and length > limit + overhead:
        raise PayloadTooLarge(limit, length)


def body_read(request: Request) -> bytes:
    """The raw request body, at most ``RASPIS_MAX_UPLOAD_BYTES`` (else 413)."""
    if request.META.get("CONTENT_LENGTH") and content_length(request) is None:
        raise Rejected.one("the Content-Length header is not a number")
    size_check(request)
    limit = settings.RASPIS_MAX_UPLOAD_BYTES
    try:
        data = request._request.body
    except RequestDataTooBig:
        raise PayloadTooLarge(limit) from None
    if len(data) > limit:
        raise PayloadTooLarge(limit, len(data))
    return data


class UploadThrottle(ScopedRateThrottle):
    """The ``upload`` rate, counted only for writes: reading the same URL is not throttled."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


def account(request: Request) -> User:
    """The signed-in user of a view whose permissions already require one."""
    user = request.user
    assert isinstance(user, User), "the view's permissions let an anonymous user through"
    return user


def number(value: Decimal) -> int | float:
    """A stored decimal score as the report writes it: 5, or 7.5."""
    return int(value) if value == value.to_integral_value() else float(value)


class SeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    player_id = serializers.IntegerField()
    total = serializers.SerializerMethodField()
    place = serializers.IntegerField()
    winner = serializers.BooleanField()

    def get_total(self, seat: Any) -> float:
        return number(seat.total)


class GameSummarySerializer(serializers.Serializer[Any]):
    """A game as lists show it: what it was, how it was judged, who sat where."""

    id = serializers.IntegerField()
    url = serializers.SerializerMethodField()
    ruleset = serializers.CharField(source="ruleset_preset")
    ruleset_name = serializers.CharField()
    played_at = serializers.DateTimeField(allow_null=True)
    source = serializers.CharField()  # type: ignore[assignment]
    external_id = serializers.CharField()
    visibility = serializers.CharField()
    verdict = serializers.CharField()
    audit = serializers.CharField()
    status = serializers.CharField()
    players_count = serializers.IntegerField()
    deals_count = serializers.IntegerField()
    seats = SeatSerializer(many=True, source="seats.all")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_url(self, game: Game) -> str:
        return reverse("game-detail", args=[game.pk])
