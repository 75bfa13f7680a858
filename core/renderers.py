"""The API's JSON renderer and parser: DRF's, made safe for what a client can send.

A JSON body may spell a lone surrogate (``"\\ud800"``); Python reads it into a ``str`` that
has no UTF-8 form, and a finding quoting it back (``actual``) would make DRF's renderer fail
with a 500. Such an answer is written with ``\\uXXXX`` escapes instead, which JSON allows.
A body nested past Python's recursion limit is a ``request.json`` 400, like any JSON it
cannot read, not a ``RecursionError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import parsers, renderers
from rest_framework.exceptions import ParseError


class JSONRenderer(renderers.JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            return _AsciiJSONRenderer().render(data, accepted_media_type, renderer_context)


class _AsciiJSONRenderer(renderers.JSONRenderer):
    ensure_ascii = True


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply") from None
