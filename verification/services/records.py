"""One record through the API: read it, verify it without storing, store it."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError

from core.errors import Rejected, finding_dict
from games.selectors import stored_rulesets
from replay import Code, Finding, malformed
from replay import verify as engine_verify
from verification.json_codec import record_loads
from verification.services.limits import record_limits_check
from verification.services.store import Entry, Outcome, records_store

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def record_read(*, data: bytes) -> tuple[str, Any]:
    """The request body → the record's exact text and its JSON, or ``record.json`` (400)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Rejected([_json_finding(f"the record is not UTF-8 text ({exc.reason})")]) from None
    try:
        value = record_loads(text)
    except json.JSONDecodeError as exc:
        message = f"the record is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        raise Rejected([_json_finding(message)]) from None
    except ValueError as exc:
        raise Rejected([_json_finding(f"the record is not JSON: {exc}")]) from None
    except RecursionError:
        raise Rejected([_json_finding("the record is nested too deeply to read")]) from None
    return text, value


def _json_finding(message: str) -> dict[str, Any]:
    return finding_dict(Finding(Code.RECORD_JSON, message, path=""))


def record_check(*, data: bytes) -> dict[str, Any]:
    """The report of a record, stored nowhere; a body that is not JSON gets a malformed one.

    A record past the limits (``verification.services.limits``) is refused (413) instead: the
    replay's work is what the limits bound."""
    record_limits_check(size=len(data), value=None)
    try:
        _, value = record_read(data=data)
    except Rejected as rejected:
        message = rejected.findings[0]["message"]
        return malformed([Finding(Code.RECORD_JSON, message, path="")], None).to_dict()
    record_limits_check(size=len(data), value=value)
    return engine_verify(value, stored_rulesets()).to_dict()


def game_store(*, text: str, value: Any, uploaded_by: User, visibility: str) -> Outcome:
    """Verify and store one record now (the API's small-record path); 413 past the limits."""
    record_limits_check(size=len(text.encode()), value=value)
    for attempt in (1, 2):
        try:
            return records_store(
                entries=[Entry(text, value)], uploaded_by=uploaded_by, visibility=visibility
            )[0]
        except IntegrityError:
            # A concurrent request stored the same text or external id first; the second
            # attempt finds it and answers duplicate or replaced.
            if attempt == 2:
                raise
    raise AssertionError("unreachable")
