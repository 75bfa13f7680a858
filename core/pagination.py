"""Pages of the API's lists: every list of the API pages through this class.

A ``page`` that is not a positive integer is a 400 located at ``/page``: DRF on its own answers
it, like a page past the last, with a 404, and a client could not tell a typo from the end.
A page past the last stays a 404 (``request.not_found``).
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request


class Pages(PageNumberPagination):
    last_page_strings = ()
    invalid_page_message = "page {page_number} is past the last page"

    class Input(serializers.Serializer[Any]):
        page = serializers.IntegerField(
            min_value=1, required=False, default=1, help_text="1-based; past the last page is a 404"
        )

    def get_page_number(self, request: Request, paginator: Paginator[Any]) -> int:
        params = self.Input(data=request.query_params)
        params.is_valid(raise_exception=True)
        page: int = params.validated_data["page"]
        return page


class SizedPages(Pages):
    """Pages whose size the client may choose with ``page_size``, up to 500."""

    page_size_query_param = "page_size"
    max_page_size = 500
