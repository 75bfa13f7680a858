"""Rulesets: the presets of RULES §8 with every option, and the ones clubs stored."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.openapi import FINDINGS, typed
from core.requests import account
from games.apis.shapes import PresetSerializer, RulesetOverridesSerializer
from games.models import StoredRuleset
from games.services import ruleset_create, ruleset_presets
from replay import PRESETS


class StoredRulesetSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    preset = serializers.CharField()
    options = typed(RulesetOverridesSerializer, serializers.JSONField)
    created_at = serializers.DateTimeField()


@extend_schema_field({"type": "string", "enum": list(PRESETS)})
class PresetField(serializers.CharField):
    """A preset's name, listed in the schema. Not a ``ChoiceField``: the engine judges it with
    the options, so an unknown preset is a ``record.ruleset`` finding like any other."""


class RulesetsApi(APIView):
    """``GET`` lists presets and stored rulesets; ``POST`` (with an account) stores one.

    A stored ruleset is checked by the engine; what it refuses comes back as
    ``record.ruleset`` findings located in the request body.
    """

    throttle_scope = "write"

    @extend_schema_serializer(component_name="RulesetCreate")
    class InputSerializer(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=100)
        preset = PresetField(max_length=50)
        options = serializers.DictField(required=False, default=dict)

    @extend_schema(
        responses={
            200: inline_serializer(
                "RulesetList",
                {
                    "presets": PresetSerializer(many=True),
                    "stored": StoredRulesetSerializer(many=True),
                },
            )
        },
        summary="List rulesets",
    )
    def get(self, request: Request) -> Response:
        stored = StoredRuleset.objects.all()
        return Response(
            {
                "presets": ruleset_presets(),
                "stored": StoredRulesetSerializer(stored, many=True).data,
            }
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: StoredRulesetSerializer, 400: FINDINGS},
        summary="Store a named ruleset",
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        ruleset = ruleset_create(by=account(request), **serializer.validated_data)
        return Response(StoredRulesetSerializer(ruleset).data, status=status.HTTP_201_CREATED)
