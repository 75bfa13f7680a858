"""What the OpenAPI schema shares across the apps' views: response shapes, the parameters of
paged lists, and request fields described as DRF parses them.

drf-spectacular (with ``COMPONENT_SPLIT_REQUEST``) already states ``minLength: 1`` for a
request string that may not be blank; the extensions below add what DRF refuses besides, so
that a client (or a fuzzer) that follows the schema is not answered with a 400.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import force_instance
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import SAFE_METHODS

from core.errors import SEVERITIES
from core.pagination import Pages

#: What DRF's and Django's ``CharField`` refuse in any text: a NUL character.
NUL = r"\u0000"


def text_type() -> dict[str, Any]:
    """The schema of a query parameter that Django's ``CharField`` reads: any string but one
    with a NUL (a fresh dict, since the schema is edited in place while it is built)."""
    return {"type": "string", "not": {"pattern": NUL}}


def typed(schema: Any, base: type[Any] = serializers.CharField, **kwargs: Any) -> Any:
    """A ``base`` field whose schema is ``schema`` (a dict or a serializer): an enum stated
    inline, without the name clashes of the enum components a ``ChoiceField`` makes, or the
    shape of what a ``JSONField`` passes through as it is. A class of its own, since DRF copies
    a serializer's fields by building them again from their arguments."""
    return extend_schema_field(schema)(type("Typed" + base.__name__, (base,), {}))(**kwargs)


def enum(values: Any, *, nullable: bool = False) -> dict[str, Any]:
    """The schema of a string that is one of ``values`` (``null`` too when ``nullable``)."""
    schema: dict[str, Any] = {"type": "string", "enum": [str(v) for v in values]}
    if nullable:
        schema["nullable"] = True
        schema["enum"].append(None)
    return schema


class Closed(serializers.Serializer[Any]):
    """An object of exactly its fields: the schema says so (``additionalProperties: false``).

    The serializers of this module describe answers built as dicts: they are used for the
    schema only, never to render a response.
    """


def place(first: int, words: str) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=first, allow_null=True, help_text=words)


class FindingFields(Closed):
    """docs/format.md's finding ("Findings"): ``code`` and the location fields are
    what tools read; ``message`` is for players and its wording is not part of the contract."""

    code = serializers.CharField(
        help_text="a code of docs/format.md's table, or in a refused request a request.* code or "
        'server.error (docs/format.md, "API errors")'
    )
    severity = typed(enum(SEVERITIES))
    deal = place(1, "1-based")
    trick = place(1, "1-based")
    play = place(1, "1-based, in its trick")
    seat = place(0, "0-based")
    player = serializers.CharField(allow_null=True, help_text="the name at seat")
    message = serializers.CharField(help_text="one sentence for players")
    expected = serializers.JSONField(allow_null=True, help_text="any JSON value; null: none")
    actual = serializers.JSONField(allow_null=True, help_text="any JSON value; null: none")


class FindingSerializer(FindingFields):
    """A finding as the API answers it outside a report: every key present, ``null`` where it
    does not apply. ``path`` is a JSON Pointer into the record or, in a refused request, into
    the request body or the object of the query parameters."""

    path = serializers.CharField(allow_null=True)


class FindingsSerializer(Closed):
    """Every refused request (docs/format.md, "API errors"): severity is always error."""

    findings = FindingSerializer(many=True)


#: Every refused request: docs/format.md's findings ("API errors").
FINDINGS = OpenApiResponse(FindingsSerializer, description='{"findings": [...]}')


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's schema, with the refusals that come from a view's settings rather than
    its code, so that no view has to repeat them (docs/format.md, "API errors"):

    - 401 wherever an account is read: a wrong token is refused before any view, and a
      missing account wherever writing needs one;
    - 403 for a write with a session but no CSRF token (``SessionAuthentication``);
    - 429 for a write to a view with a ``throttle_scope``, and for signing in: the service
      throttles writes, never reading.

    And every optional query parameter may be empty (``allowEmptyValue``): DRF and Django's
    forms read ``?page=`` as a parameter not given, as for an HTML form's empty field.
    """

    def _get_parameters(self) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super()._get_parameters()
        for parameter in parameters:
            if parameter["in"] == "query" and not parameter.get("required"):
                parameter["allowEmptyValue"] = True
        return parameters

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)
        if isinstance(force_instance(serializer), Closed):
            schema["additionalProperties"] = False
        return schema

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        authenticators = self.view.get_authenticators()
        write = self.method not in SAFE_METHODS
        refusals = {
            "401": bool(authenticators),
            "403": write and any(isinstance(a, SessionAuthentication) for a in authenticators),
            "429": write and bool(getattr(self.view, "throttle_scope", None)),
        }
        for code, applies in refusals.items():
            if applies:
                responses.setdefault(code, self._get_response_for_code(FINDINGS, code))
        return responses


class _RequestField(OpenApiSerializerFieldExtension):
    """A field's schema as drf-spectacular maps it, with ``adjust`` applied in requests only.

    Without a ``target_class`` it matches no field itself; the subclasses below name theirs.
    """

    def map_serializer_field(
        self, auto_schema: openapi.AutoSchema, direction: str
    ) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer_field(
            self.target, direction, bypass_extensions=True
        )
        if direction == "request":
            self.adjust(schema)
        return schema

    def adjust(self, schema: dict[str, Any]) -> None:
        raise NotImplementedError


class RequestText(_RequestField):
    """A request's plain ``CharField`` states that it takes no NUL and, when it strips the text
    and may not be blank, that the text has something besides whitespace: ``\\S``, which in
    Python's ``re`` (and so for schemathesis) is exactly what ``str.strip()`` does not remove.

    Only the class itself: its subclasses (``RegexField`` and the like) state their own pattern.
    """

    target_class = serializers.CharField

    def adjust(self, schema: dict[str, Any]) -> None:
        schema["not"] = {"pattern": NUL}
        if self.target.trim_whitespace and not self.target.allow_blank:
            schema["pattern"] = r"\S"


class RequestDecimal(_RequestField):
    """A request's decimal string needs a digit: drf-spectacular's pattern takes ``""``,
    ``"-"`` and ``"."``, which DRF refuses as not a number."""

    target_class = serializers.DecimalField

    def adjust(self, schema: dict[str, Any]) -> None:
        if schema.get("pattern", "").startswith("^-?"):
            schema["pattern"] = r"^-?(?=\.?\d)" + schema["pattern"].removeprefix("^-?")


def page_parameters(pages: type[Pages]) -> list[Any]:
    """The query parameters of a list paged by ``pages``: ``page`` as ``Pages.Input`` checks
    it, and ``page_size`` where the client may choose it."""
    parameters: list[Any] = [pages.Input]
    if pages.page_size_query_param:
        parameters.append(
            OpenApiParameter(
                pages.page_size_query_param,
                int,
                description=f"up to {pages.max_page_size} (a larger size is taken as "
                f"{pages.max_page_size}); anything but a positive integer is the default size",
            )
        )
    return parameters


def page_of(items: type[serializers.Serializer[Any]], name: str) -> serializers.Serializer[Any]:
    """A page of ``items`` as ``core.pagination.Pages`` answers it: the views page by hand,
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
