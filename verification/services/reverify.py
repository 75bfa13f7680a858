"""Re-verification: replay stored records with the current engine and keep what changed.

A new engine version may judge a record differently (a fixed bug, a clarified rule). Each
game gets a new current report (the old one stays as history), its seats and seat-deals are
rebuilt, and a ``VerdictChange`` row records every verdict that moved, with both engine
versions. A reviewer's status (disputed, resolved) is left alone; only ``verified`` and
``flagged`` follow the new verdict.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Exists, OuterRef

from core.bulk import Writes
from games.models import Game, GameRecord, GameStatus
from games.selectors import stored_rulesets
from games.services import status_for
from games.signals import game_verified, send_for_games
from replay import ENGINE_VERSION, AnyReport, Code, Finding, malformed, verify
from verification.json_codec import json_text, record_loads
from verification.models import Report as ReportRow
from verification.models import VerdictChange
from verification.services.families import report_audit, report_rounds
from verification.services.store import (
    Prepared,
    reports_retire,
    reports_write,
    verdict_changes_record,
)

CHUNK = 200


@dataclass(frozen=True, slots=True)
class ReverifySummary:
    games: int
    changes: int


def games_to_reverify(*, everything: bool = False, since: datetime | None = None) -> list[int]:
    """All games, those stored since a moment, or (by default) those another engine judged."""
    games = Game.objects.all()
    if since is not None:
        games = games.filter(created_at__gte=since)
    elif not everything:
        same = ReportRow.objects.filter(
            game=OuterRef("pk"), current=True, engine_version=ENGINE_VERSION
        )
        games = games.exclude(Exists(same))
    return list(games.order_by("pk").values_list("pk", flat=True))


def games_reverify(*, game_ids: Sequence[int]) -> ReverifySummary:
    """Re-verify the games, a chunk per transaction so that progress survives an interruption."""
    changes = 0
    for chunk in _chunks(game_ids):
        changes += _chunk_reverify(chunk)
    return ReverifySummary(games=len(game_ids), changes=changes)


def _chunks(ids: Sequence[int]) -> Iterator[Sequence[int]]:
    for start in range(0, len(ids), CHUNK):
        yield ids[start : start + CHUNK]


@transaction.atomic
def _chunk_reverify(game_ids: Sequence[int]) -> int:
    games = {g.pk: g for g in Game.objects.select_for_update().filter(pk__in=game_ids)}
    rulesets = stored_rulesets()
    prepared: list[Prepared] = []
    records = GameRecord.objects.filter(game_id__in=games, current=True).values_list(
        "game_id", "pk", "text", "sha256"
    )
    for game_id, record_id, text, sha in records:
        try:
            value = record_loads(text)
        except (ValueError, RecursionError):
            value = None
        report: AnyReport
        if value is None:
            report = malformed([Finding(Code.RECORD_JSON, "the record is not JSON", path="")], None)
        else:
            report = verify(value, rulesets)
        # Only the report and its rows are new: the game's columns from meta stay as stored.
        ready = Prepared(
            len(prepared),
            text,
            sha,
            ruleset=None,
            meta=None,
            report=report,
            data=json_text(report.to_dict()),
            external_id="",
            game_id=game_id,
            record_id=record_id,
        )
        prepared.append(ready)
    previous = reports_retire([r.game_id for r in prepared], records=False)
    with Writes() as writes:
        reports_write(prepared, writes)
    changes = verdict_changes_record(previous, prepared, VerdictChange.Reason.REVERIFY)
    for ready in prepared:
        game = games[ready.game_id]
        report = ready.report
        game.verdict = str(report.verdict)
        game.audit = report_audit(report)
        game.deals_count = report_rounds(report)
        if report.ruleset is not None:
            game.ruleset_preset = report.ruleset.preset
        if game.status in (GameStatus.VERIFIED, GameStatus.FLAGGED):
            game.status = status_for(game.verdict)
    Game.objects.bulk_update(
        list(games.values()), ["verdict", "audit", "deals_count", "ruleset_preset", "status"]
    )
    send_for_games(game_verified, sender=__name__, game_ids=list(games))
    return changes
