"""One record through the API: read it, verify it without storing, store it, replay it.

Also the stored rulesets a club saves, since validating one needs the engine's
``resolve_ruleset``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction

from games.errors import Rejected
from games.models import Game, GameRecord, StoredRuleset
from replay.engine import (
    PRESETS,
    Code,
    Finding,
    NoSuchMoment,
    preset_ruleset,
    resolve_ruleset,
    state_at,
)
from replay.engine import verify as engine_verify
from replay.engine.report import malformed
from replay.services.json_codec import record_loads
from replay.services.store import Entry, Outcome, finding_dict, records_store, stored_rulesets

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
    """The report of a record, stored nowhere; a body that is not JSON gets a malformed one."""
    try:
        _, value = record_read(data=data)
    except Rejected as rejected:
        message = rejected.findings[0]["message"]
        return malformed([Finding(Code.RECORD_JSON, message, path="")], None).to_dict()
    return engine_verify(value, stored_rulesets()).to_dict()


def game_store(*, text: str, value: Any, uploaded_by: User, visibility: str) -> Outcome:
    """Verify and store one record now (the API's small-record path)."""
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


def game_record_text(*, game: Game) -> str:
    return GameRecord.objects.values_list("text", flat=True).get(game=game, current=True)


def game_state(
    *, game: Game, deal: int, trick: int | None = None, play: int | None = None
) -> dict[str, Any]:
    """The table at one moment of the game's current record (``replay.engine.state_at``)."""
    _, value = record_read(data=game_record_text(game=game).encode("utf-8"))
    try:
        state, findings = state_at(value, deal, trick, play, stored_rulesets())
    except NoSuchMoment as missing:
        # The query asks for too much, not the record is wrong: located in the query.
        raise Rejected.one(
            str(missing),
            path=f"/{missing.name}",
            expected=missing.expected,
            actual=missing.actual,
        ) from None
    if state is None:
        raise Rejected([finding_dict(f) for f in findings])
    return state


def ruleset_presets() -> list[dict[str, Any]]:
    """Every preset of RULES §8 with all its options resolved."""
    return [{"name": name, **preset_ruleset(name).to_dict()} for name in PRESETS]


def ruleset_findings(*, preset: Any, options: Any) -> list[dict[str, Any]]:
    """What the engine refuses in a ruleset to store, located in it; [] when it is good."""
    _, findings = resolve_ruleset({"preset": preset, "options": options})
    rows = [finding_dict(f) for f in findings]
    for row in rows:
        # The engine locates the problem inside a record's "ruleset"; here the ruleset is
        # the whole object.
        if row["path"] and row["path"].startswith("/ruleset"):
            row["path"] = row["path"][len("/ruleset") :]
    return rows


@transaction.atomic
def ruleset_create(*, name: str, preset: str, options: dict[str, Any], by: User) -> StoredRuleset:
    """Save a named ruleset after the engine accepts it; its findings say what is wrong."""
    name = name.strip()
    if name in PRESETS:
        raise Rejected.one(f"{name!r} is the name of a preset", path="/name", actual=name)
    if StoredRuleset.objects.filter(name=name).exists():
        raise Rejected.one(f"a ruleset named {name!r} exists already", path="/name", actual=name)
    findings = ruleset_findings(preset=preset, options=options)
    if findings:
        raise Rejected(findings)
    try:
        with transaction.atomic():
            return StoredRuleset.objects.create(
                name=name, preset=preset, options=options, created_by=by
            )
    except IntegrityError:
        raise Rejected.one(
            f"a ruleset named {name!r} exists already", path="/name", actual=name
        ) from None
