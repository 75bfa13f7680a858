"""The schema of a report's findings: the trick-taking codes (the schema's ``CodeEnum``) and the
other games' findings, each with its own codes and places (docs/format.md, "Findings").

The API's own refusals share the finding's shape (``core.openapi.FindingSerializer``); the
codes and places of a game are the engine's, so they are stated here, above it.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from core.openapi import Closed, FindingFields, enum, place, typed
from replay import Code, Severity

#: The trick-taking report's finding codes, as the schema's ``CodeEnum`` lists them (named so
#: in ``SPECTACULAR_SETTINGS``, since the other games' findings have a ``code`` too).
TRICK_CODES = [str(code) for code in Code]


class ReportFindingSerializer(FindingFields):
    """A finding as a report holds it: ``path``, a JSON Pointer into the record, is present
    only when the finding is about a place in the record."""

    code = typed(enum(TRICK_CODES))
    path = serializers.CharField(required=False)


def report_finding(
    name: str,
    words: str,
    codes: Any,
    places: tuple[tuple[str, str], ...],
    *,
    stored: bool = False,
) -> type[Closed]:
    """A finding of another game's report: its own codes and its own places (1-based, in
    their order), the keys of docs/format.md's finding besides (``path`` only where there is
    a place in the record; always, ``null`` where there is none, when ``stored``: as a stored
    game's findings are answered)."""
    fields: dict[str, Any] = {"code": typed(enum(codes)), "severity": typed(enum(Severity))}
    fields.update((key, place(1, help)) for key, help in places)
    fields.update(
        seat=place(0, "0-based"),
        player=serializers.CharField(allow_null=True, help_text="the name at seat"),
        message=serializers.CharField(help_text="one sentence for players"),
        expected=serializers.JSONField(allow_null=True, help_text="any JSON value; null: none"),
        actual=serializers.JSONField(allow_null=True, help_text="any JSON value; null: none"),
        path=serializers.CharField(allow_null=True)
        if stored
        else serializers.CharField(required=False),
    )
    return type(name, (Closed,), {"__doc__": words, **fields})
