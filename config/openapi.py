"""Response shapes the OpenAPI schema shares across the apps' views."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

#: Every refused request: FORMAT.md's findings (docs/format.md, "API errors").
FINDINGS = OpenApiResponse(OpenApiTypes.OBJECT, description='{"findings": [...]}')


def page_of(items: type[serializers.Serializer[Any]], name: str) -> serializers.Serializer[Any]:
    """A page of ``items`` as ``config.pagination.Pages`` answers it: the views page by hand,
    so the schema would otherwise show a bare list."""
    return inline_serializer(
        name=f"{name}Page",
        fields={
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": items(many=True),
        },
    )
