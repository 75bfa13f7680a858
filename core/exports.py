"""Exports for spreadsheets and scripts: rows streamed as CSV or as JSON Lines.

An export is a table, so both forms hold the same rows; CSV flattens what JSON Lines may
nest (a view gives each form its rows). Rows are written as they come, so an export of any
size takes no more memory than one row.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.http import StreamingHttpResponse

#: The forms an export comes in, by the suffix of its URL, with their media types.
MEDIA_TYPES = {"csv": "text/csv", "jsonl": "application/x-ndjson"}
#: What a spreadsheet reads as the start of a formula: a text cell starting so is written
#: after an apostrophe, so that a player named ``=HYPERLINK(…)`` stays a name (numbers,
#: negative ones included, are written as they are).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _Line:
    """What ``csv.writer`` writes to: it hands each line back instead of keeping it."""

    def write(self, text: str) -> str:
        return text


def csv_lines(columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> Iterator[bytes]:
    """A header of ``columns``, then one line per row (a missing key is an empty cell)."""
    writer = csv.writer(_Line())
    yield writer.writerow(columns).encode("utf-8")
    for row in rows:
        yield writer.writerow([_cell(row.get(c)) for c in columns]).encode("utf-8")


def _json_default(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def json_lines(rows: Iterable[Mapping[str, Any]]) -> Iterator[bytes]:
    for row in rows:
        text = json.dumps(row, ensure_ascii=False, separators=(",", ":"), default=_json_default)
        yield text.encode("utf-8") + b"\n"


def export_response(kind: str, lines: Iterator[bytes], *, filename: str) -> StreamingHttpResponse:
    """The streamed answer of an export of ``kind`` (a key of ``MEDIA_TYPES``)."""
    response = StreamingHttpResponse(lines)
    response["Content-Type"] = f"{MEDIA_TYPES[kind]}; charset=utf-8"
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", filename)  # a header holds no control or quote
    response["Content-Disposition"] = f'attachment; filename="{safe}.{kind}"'
    return response
