"""Query parameters as django-filter filters, every bad one a finding located at its name."""

from __future__ import annotations

from typing import Any, TypeVar

import django_filters
from django.db.models import Model, QuerySet

from core.errors import Rejected, request_finding

_M = TypeVar("_M", bound=Model)


def filtered(
    filterset_class: type[django_filters.FilterSet], filters: Any, queryset: QuerySet[_M]
) -> QuerySet[_M]:
    """The queryset filtered; every bad parameter is a finding located at its name, so a
    client learns of them all in one 400 rather than getting an unfiltered list."""
    filterset = filterset_class(filters, queryset=queryset)
    if not filterset.is_valid():
        raise Rejected(
            [
                request_finding("request.invalid", f"{field}: {message}", path=f"/{field}")
                for field, messages in filterset.errors.items()
                for message in messages
            ]
        )
    result: QuerySet[_M] = filterset.qs
    return result
