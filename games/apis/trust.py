"""Standing behind games (docs/trust.md): an account links itself to a player, staff or a
trusted club's organiser approve the link, and the linked player confirms the games they sat
in that someone else uploaded."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.openapi import FINDINGS
from core.requests import account
from games.apis.games import game_or_404
from games.models import Player, PlayerLink
from games.services import game_confirm, player_link_approve, player_link_request, vouches


class PlayerLinkSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    user = serializers.CharField(source="user.get_username")
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    approved = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    def get_approved(self, link: PlayerLink) -> bool:
        return link.approved_by_id is not None


class PlayerLinkApi(APIView):
    """``POST``: the signed-in account claims to be this player, to be approved."""

    permission_classes = (IsAuthenticated,)
    throttle_scope = "write"

    @extend_schema(
        request=None,
        responses={201: PlayerLinkSerializer, 404: FINDINGS, 409: FINDINGS},
        summary="Link your account to a player",
    )
    def post(self, request: Request, player_id: int) -> Response:
        player = Player.objects.filter(pk=player_id, merged_into__isnull=True).first()
        if player is None:
            raise NotFound(f"no player {player_id}")
        link = player_link_request(user=account(request), player=player)
        return Response(PlayerLinkSerializer(link).data, status=status.HTTP_201_CREATED)


class PlayerLinkListApi(APIView):
    """Links waiting for approval, for those who may approve them; one's own for others."""

    permission_classes = (IsAuthenticated,)

    @extend_schema(responses={200: PlayerLinkSerializer(many=True)}, summary="List player links")
    def get(self, request: Request) -> Response:
        user = account(request)
        links = PlayerLink.objects.select_related("user", "player").order_by("pk")
        if vouches(user):
            links = links.filter(approved_by__isnull=True).exclude(user=user)
        else:
            links = links.filter(user=user)
        return Response(PlayerLinkSerializer(links[:500], many=True).data)


class PlayerLinkApproveApi(APIView):
    """Staff or an organiser of a trusted club approve another account's link."""

    permission_classes = (IsAuthenticated,)
    throttle_scope = "write"

    @extend_schema(
        request=None,
        responses={200: PlayerLinkSerializer, 403: FINDINGS, 404: FINDINGS},
        summary="Approve a link of an account to a player",
    )
    def post(self, request: Request, link_id: int) -> Response:
        link = PlayerLink.objects.select_related("user", "player").filter(pk=link_id).first()
        if link is None:
            raise NotFound(f"no player link {link_id}")
        link = player_link_approve(link=link, by=account(request))
        return Response(PlayerLinkSerializer(link).data)


class GameConfirmApi(APIView):
    """A player seated in the game, linked to the signed-in account, stands behind it."""

    permission_classes = (IsAuthenticated,)
    throttle_scope = "write"

    class OutputSerializer(serializers.Serializer[Any]):
        game = serializers.IntegerField(source="game_id")
        user = serializers.CharField(source="user.get_username")
        created_at = serializers.DateTimeField()

    @extend_schema(
        request=None,
        responses={201: OutputSerializer, 403: FINDINGS, 404: FINDINGS},
        summary="Confirm a game you played in",
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = game_or_404(request, game_id)
        confirmation = game_confirm(game=game, user=account(request))
        return Response(self.OutputSerializer(confirmation).data, status=status.HTTP_201_CREATED)
