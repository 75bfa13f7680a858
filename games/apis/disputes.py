"""Disputes: anyone with an account may object to a game they see; staff decide."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.openapi import FINDINGS, page_of, page_parameters
from core.pagination import Pages
from core.requests import account
from games.apis.games import game_or_404
from games.models import Dispute, DisputeStatus
from games.selectors import dispute_get, dispute_list
from games.services import dispute_open, dispute_resolve


class DisputeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    game = serializers.IntegerField(source="game_id")
    opened_by = serializers.CharField(source="opened_by.get_username")
    reason = serializers.CharField()
    deal = serializers.IntegerField(allow_null=True)
    trick = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    note = serializers.CharField()
    corrected_scores = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="with decision corrected: the final totals in seat order, as decimal strings",
    )
    decided_by = serializers.SerializerMethodField()
    decided_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()

    def get_decided_by(self, dispute: Dispute) -> str | None:
        return None if dispute.decided_by is None else dispute.decided_by.get_username()


class DisputeCreateApi(APIView):
    permission_classes = (IsAuthenticated,)
    throttle_scope = "write"

    @extend_schema_serializer(component_name="DisputeCreate")
    class InputSerializer(serializers.Serializer[Any]):
        reason = serializers.CharField(max_length=5000)
        deal = serializers.IntegerField(min_value=1, required=False, allow_null=True)
        trick = serializers.IntegerField(
            min_value=1,
            required=False,
            allow_null=True,
            help_text="needs deal; at most its number of tricks (the cards of a hand); in rummy "
            "the turn of the deal, in poker the stage of the hand (deal)",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: DisputeSerializer, 400: FINDINGS, 404: FINDINGS},
        summary="Dispute a game",
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = game_or_404(request, game_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        dispute = dispute_open(game=game, by=account(request), **serializer.validated_data)
        return Response(DisputeSerializer(dispute).data, status=status.HTTP_201_CREATED)


class DisputeListApi(APIView):
    """Staff see every dispute; others those they opened and those of games they see."""

    @extend_schema(
        parameters=page_parameters(Pages),
        responses={200: page_of(DisputeSerializer, "Dispute"), 400: FINDINGS, 404: FINDINGS},
        summary="List disputes",
        operation_id="disputes_list",
    )
    def get(self, request: Request) -> Response:
        paginator = Pages()
        disputes = dispute_list(user=request.user)
        page = paginator.paginate_queryset(disputes, request, view=self)
        return paginator.get_paginated_response(DisputeSerializer(page, many=True).data)


class DisputeResolveApi(APIView):
    permission_classes = (IsAdminUser,)
    throttle_scope = "write"

    @extend_schema_serializer(component_name="DisputeResolve")
    class InputSerializer(serializers.Serializer[Any]):
        decision = serializers.ChoiceField(
            choices=[DisputeStatus.UPHELD, DisputeStatus.REJECTED, DisputeStatus.CORRECTED]
        )
        note = serializers.CharField(max_length=5000, allow_blank=True, default="")
        corrected_scores = serializers.ListField(
            child=serializers.DecimalField(max_digits=14, decimal_places=4),
            required=False,
            allow_null=True,
            help_text="with decision corrected: the final total of each seat, in seat order",
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            200: DisputeSerializer,
            400: FINDINGS,
            403: FINDINGS,
            404: FINDINGS,
            409: FINDINGS,
        },
        summary="Decide a dispute (staff)",
    )
    def post(self, request: Request, dispute_id: int) -> Response:
        dispute = dispute_get(user=request.user, dispute_id=dispute_id)
        if dispute is None:
            raise NotFound(f"no dispute {dispute_id}")
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        dispute = dispute_resolve(dispute=dispute, by=account(request), **serializer.validated_data)
        return Response(DisputeSerializer(dispute).data)
