"""The token an account's username and password obtain: DRF's ``ObtainAuthToken``, with the
400 it answers wrong or missing credentials with stated in the schema, and failed attempts
limited per account and per address (``core.logins``: a 429 with ``Retry-After``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from core.logins import address_of, login_failed, login_wait
from core.openapi import FINDINGS
from core.renderers import JSONParser


class TokenApi(ObtainAuthToken):
    # DRF's view names its parsers itself; this one takes deep nesting as a 400.
    parser_classes = (FormParser, MultiPartParser, JSONParser)

    @extend_schema(
        request=AuthTokenSerializer,
        responses={200: AuthTokenSerializer, 400: FINDINGS, 429: FINDINGS},
        summary="Obtain an account's token",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = request.data
        username = data.get("username") if hasattr(data, "get") else None
        name = username if isinstance(username, str) else ""
        address = address_of(request)
        wait = login_wait(username=name, address=address)
        if wait is not None:
            raise Throttled(wait)
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            login_failed(username=name, address=address)
            raise
