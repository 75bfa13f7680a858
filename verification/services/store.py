"""Storing records: verify each with the engine, then write games, versions, reports,
findings, seats and seat-deals for many at once.

One function serves every way in — a single record posted to the API, a batch of an upload,
re-verification — so that they cannot disagree. The rules it applies:

- the same record text (by SHA-256) is stored once among the games its uploader may see: a
  second copy is a ``duplicate`` of the first game, even when the first is now an older
  version; a copy held only by a game the uploader may not see (another account's private
  game) is stored again as the uploader's own, so that uploading a text never tells whether
  someone else keeps it privately;
- a malformed record is ``rejected`` with its findings and not stored;
- a record with the ``meta.external_id`` of a game of the same uploader ``replaced`` that
  game's record: the game keeps its id, the old version, report and findings stay as history,
  seats and seat-deals are rebuilt from the new report;
- games with verdict illegal or mismatch are ``flagged`` for review.

Work per batch is a handful of queries, all at its start: duplicates, stored rulesets, the
uploader's games by external id and the players (both as the records' texts show them:
each record is read only when its turn comes, ``Entry``), and the ids of games, records and
reports.
Then per chunk of ``WRITE_CHUNK`` records come only bulk inserts (``COPY`` on PostgreSQL) of
every row, queued (``core.bulk.Writes``): PostgreSQL takes in a chunk's rows, about 3,600
seat-deals among them, while Python verifies the next chunk, so that the two share the
machine's two cores instead of taking turns. The last chunks are smaller and smaller, since
the worker waits for the last one's rows. A chunk queries, after waiting for the queue, only
to replace a stored game, to create players, or for an external id its text hid.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from core.bulk import Writes, foreign_keys_checked_at_once
from core.errors import finding_dict
from games.models import Dispute, DisputeStatus, Game, GameRecord, GameSeat, GameStatus, player_key
from games.selectors import game_visible, stored_rulesets
from games.services import players_find, players_resolve, status_for
from games.signals import game_verified, send_for_games
from replay import (
    ENGINE_VERSION,
    PRESET_FAMILIES,
    AnyReport,
    Family,
    Finding,
    PokerReport,
    RummyReport,
    family_of,
    line_document,
)
from replay import Verdict as EngineVerdict
from replay import verify as engine_verify
from verification.json_codec import json_text, record_loads
from verification.models import Finding as FindingRow
from verification.models import PokerSeatHand, RummySeatDeal, SeatDeal, Stored, VerdictChange
from verification.models import Report as ReportRow
from verification.services.families import (
    POKER_SEAT_HAND_FIELDS,
    RUMMY_SEAT_DEAL_FIELDS,
    poker_seat_hand_rows,
    report_audit,
    report_rounds,
    report_standings,
    rummy_seat_deal_rows,
)
from verification.services.limits import record_limits_finding
from verification.services.rows import (
    FINDING_FIELDS,
    SEAT_DEAL_FIELDS,
    SEAT_FIELDS,
    finding_rows,
    meta_text,
    played_at,
    player_column,
    point_value,
    seat_deal_rows,
    seat_rows,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


#: The value of an ``Entry`` whose text is read when its turn comes.
UNREAD: Any = object()


@dataclass(slots=True)
class Entry:
    """A record to store: its exact text and decoded JSON, or the split's ``record.json``.

    An upload's entries come ``UNREAD``: each is read just before it is verified, and its JSON
    dropped just after. A batch that read all its records first and held them to its end
    took about a tenth longer (``bench/ingest.py``'s batches): every record's objects were
    new memory, and out of the cache by the time the engine came to them. ``label`` says
    where the text came from ("line 3"), for the finding of one that is not a JSON object.
    """

    text: str
    value: Any = UNREAD
    error: Finding | None = None
    label: str = ""

    def read(self) -> tuple[Any, Finding | None]:
        """The decoded JSON, or the ``record.json`` finding that there is none."""
        if self.value is not UNREAD:
            return self.value, self.error
        document = line_document(self.label, self.text, record_loads)
        return document.value, document.error


@dataclass(slots=True)
class Outcome:
    """What became of one entry."""

    kind: Stored
    game_id: int | None = None
    findings: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class Prepared:
    """A replayable record on its way into the database."""

    index: int
    text: str
    sha256: str
    ruleset: Any  #: the record's ``ruleset`` and ``meta``, all of its JSON that is kept
    meta: Any
    report: AnyReport
    data: str  #: ``report.to_dict()`` as JSON
    external_id: str
    game_id: int = 0
    record_id: int = 0
    current: bool = True


def sha256_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


#: Records verified while PostgreSQL takes in the rows of the ones before them.
WRITE_CHUNK = 25
#: The last chunks of a batch shrink by this ratio (``_chunk_sizes``). PostgreSQL takes in
#: each chunk's rows while the worker verifies the next, in less time than the worker takes;
#: the last chunk's it takes in while the worker waits, so the last chunk is kept small.
TAIL_RATIO = 0.6
#: The size of a batch's last chunk, at most.
TAIL_LAST = 3


@transaction.atomic
def records_store(
    *,
    entries: Sequence[Entry],
    uploaded_by: User | None,
    visibility: str,
) -> list[Outcome]:
    """Verify and store ``entries`` in order; one outcome per entry, in the same order."""
    outcomes: list[Outcome | None] = [None] * len(entries)
    shas = [sha256_of(e.text) for e in entries]
    known = _known(shas, uploaded_by)
    rulesets = stored_rulesets()
    first_of: dict[str, int] = {}
    copies: dict[int, int] = {}
    fresh: list[int] = []
    for i, (entry, sha) in enumerate(zip(entries, shas, strict=True)):
        if entry.error is not None:
            outcomes[i] = _rejected(entry.error)
        elif sha in known:
            outcomes[i] = Outcome(Stored.DUPLICATE, game_id=known[sha])
        elif sha in first_of:
            copies[i] = first_of[sha]
        else:
            first_of[sha] = i
            fresh.append(i)
    games: list[int] = []
    foreign_keys_checked_at_once()
    hints = {i: _hints(entries[i], by_uploader=uploaded_by is not None) for i in fresh}
    looked_up = _looked_up(hints, uploaded_by)
    with Writes() as writes:
        writes.reserve({Game: len(fresh), GameRecord: len(fresh), ReportRow: len(fresh)})
        for chunk in _chunks(hints):
            prepared = []
            for i in chunk:
                outcomes[i], ready = _prepare(i, entries[i], shas[i], rulesets)
                if ready is not None:
                    prepared.append(ready)
                writes.advance()
            if prepared:
                written = _games_write(prepared, uploaded_by, visibility, writes, looked_up)
                for ready, kind in written:
                    outcomes[ready.index] = Outcome(kind, game_id=ready.game_id)
                    games.append(ready.game_id)
    send_for_games(game_verified, sender=__name__, game_ids=games)
    for i, first in copies.items():
        original = outcomes[first]
        assert original is not None
        if original.kind != Stored.REJECTED:
            outcomes[i] = Outcome(Stored.DUPLICATE, game_id=original.game_id)
            continue
        # Rejected as it read: its own finding, which names where it came from.
        _, error = entries[i].read()
        outcomes[i] = original if error is None else _rejected(error)
    return [o for o in outcomes if o is not None]


def _known(shas: Sequence[str], uploaded_by: User | None) -> dict[str, int]:
    """The game holding each of these texts among the games the uploader may see (any public
    one, their own, every one for staff), their own first."""
    visible = game_visible(user=uploaded_by or AnonymousUser())
    rows = GameRecord.objects.filter(sha256__in=set(shas), game__in=visible).values_list(
        "sha256", "game_id", "uploaded_by_id"
    )
    own = None if uploaded_by is None else uploaded_by.pk
    known: dict[str, int] = {}
    for sha, game_id, by in rows.order_by("pk"):
        if sha not in known or by == own:
            known[sha] = game_id
    return known


def _chunks(hints: Mapping[int, _Hints]) -> list[list[int]]:
    """The entries of ``hints`` in chunks of about ``WRITE_CHUNK`` records, the versions of
    one external id in one chunk: a batch then stores a game and its later versions together,
    whatever the chunk size, as one group (``_games_write``) rather than as a replacement of
    a game it has just made."""
    groups: dict[tuple[str, Any], list[int]] = {}
    for i, hint in hints.items():
        key = ("ext", hint.external_id) if hint.external_id else ("n", i)
        groups.setdefault(key, []).append(i)
    sizes = _chunk_sizes(len(hints))
    chunks: list[list[int]] = [[]]
    for members in groups.values():
        if len(chunks[-1]) >= sizes[min(len(chunks), len(sizes)) - 1]:
            chunks.append([])
        chunks[-1].extend(members)
    return [chunk for chunk in chunks if chunk]


def _chunk_sizes(count: int) -> list[int]:
    """The sizes of the chunks of ``count`` records: ``WRITE_CHUNK``, then smaller and smaller
    towards the end, so that the worker waits at a batch's end for a few records' rows only.

    Built from the end: the last is ``TAIL_LAST``, each before it larger by ``TAIL_RATIO``
    (PostgreSQL takes in a chunk's rows in less time than the next takes to verify), up to
    ``WRITE_CHUNK``; the first takes what is left over.
    """
    sizes: list[int] = []
    size = min(TAIL_LAST, WRITE_CHUNK)
    total = 0
    while total < count:
        sizes.append(size)
        total += size
        size = min(WRITE_CHUNK, max(size + 1, math.ceil(size / TAIL_RATIO)))
    sizes.reverse()
    if sizes:
        sizes[0] -= total - count
    return sizes


@dataclass(frozen=True, slots=True)
class _Hints:
    """An entry's external id (its uploader's, else "") and players' names, as far as a
    batch's start can tell: an unread entry's are read from its text (``_member``)."""

    external_id: str
    names: list[str]


def _hints(entry: Entry, *, by_uploader: bool) -> _Hints:
    if entry.value is UNREAD:
        meta = {"external_id": _member(entry.text, "external_id")} if by_uploader else None
        players = _member(entry.text, "players")
    else:
        value = entry.value if isinstance(entry.value, dict) else {}
        meta = value.get("meta") if by_uploader else None
        players = value.get("players")
    if not (isinstance(players, list) and all(isinstance(name, str) for name in players)):
        players = []
    return _Hints(meta_text(meta, "external_id"), players)


_MEMBER_COLON = re.compile(r"[ \t\n\r]*:[ \t\n\r]*")
_MEMBER_VALUE = json.JSONDecoder()


def _member(text: str, name: str) -> Any:
    """The value of the first member ``name`` in the JSON ``text``, the name spelled as is,
    or None. Read without reading the rest, for a batch's start: a record's ``players`` and
    ``meta`` come first, and the search stops there.

    It may be a member of some other object than the one meant, and a name spelled with
    escapes is missed: what it is used for is looked up again once the record is read.
    """
    key = f'"{name}"'
    at = text.find(key)
    if at < 0:
        return None
    colon = _MEMBER_COLON.match(text, at + len(key))
    if colon is None:
        return None
    try:
        return _MEMBER_VALUE.raw_decode(text, colon.end())[0]
    except (ValueError, RecursionError):
        return None


@dataclass(slots=True)
class _LookedUp:
    """What a batch's chunks look up, read at its start while nothing is queued: a query
    between two chunks would first wait for every row queued before it (``Writes``), so
    that PostgreSQL and the verification no longer overlap."""

    games: dict[str, int]  #: the uploader's games by external id, locked for update
    checked: set[str]  #: the external ids looked up, whether a game has them or not
    players: dict[str, int]  #: the players that exist, by ``player_key`` (none is created
    #: here: a record that proves malformed must leave no trace)


def _looked_up(hints: Mapping[int, _Hints], uploaded_by: User | None) -> _LookedUp:
    external_ids = {hint.external_id for hint in hints.values()} - {""}
    names = {player_key(player_column(name)) for hint in hints.values() for name in hint.names}
    games = _games_locked(uploaded_by, external_ids) if uploaded_by and external_ids else {}
    return _LookedUp(games, external_ids, players_find(keys=names) if names else {})


def _games_locked(uploaded_by: User, external_ids: set[str]) -> dict[str, int]:
    """The ids of the uploader's games with these external ids, locked for update."""
    return dict(
        Game.objects.select_for_update()
        .filter(uploaded_by=uploaded_by, external_id__in=external_ids)
        .values_list("external_id", "id")
    )


def _rejected(error: Finding) -> Outcome:
    return Outcome(Stored.REJECTED, findings=[finding_dict(error)])


def _prepare(
    index: int, entry: Entry, sha: str, rulesets: Mapping[str, Any]
) -> tuple[Outcome | None, Prepared | None]:
    value, error = entry.read()
    if error is not None:
        return _rejected(error), None
    past = record_limits_finding(size=len(entry.text.encode()), value=value)
    if past is not None:
        return Outcome(Stored.REJECTED, findings=[past]), None
    report = engine_verify(value, rulesets)
    if report.verdict is EngineVerdict.MALFORMED:
        findings = [finding_dict(f) for f in report.findings]
        return Outcome(Stored.REJECTED, findings=findings), None
    meta = value.get("meta")
    ready = Prepared(
        index,
        entry.text,
        sha,
        ruleset=value.get("ruleset"),
        meta=meta,
        report=report,
        data=json_text(report.to_dict()),
        external_id=meta_text(meta, "external_id"),
    )
    return None, ready


def _games_write(
    prepared: list[Prepared],
    uploaded_by: User | None,
    visibility: str,
    writes: Writes,
    looked_up: _LookedUp,
) -> list[tuple[Prepared, Stored]]:
    """Create or replace the games of ``prepared`` and queue all their rows on ``writes``.

    What it looks up is in ``looked_up``; only a replacement, or a name the batch's start did
    not see, makes it wait for the queue and query.
    """
    groups: dict[tuple[str, Any], list[Prepared]] = {}
    for ready in prepared:
        key = (
            ("ext", ready.external_id) if ready.external_id and uploaded_by else ("n", ready.index)
        )
        groups.setdefault(key, []).append(ready)
    if uploaded_by is not None:
        external_ids = {key[1] for key in groups if key[0] == "ext"}
        _games_look_up(uploaded_by, external_ids, looked_up, writes)
    existing = looked_up.games
    old_keys = {key for key in groups if key[0] == "ext" and key[1] in existing}
    new_groups = [(key, g) for key, g in groups.items() if key not in old_keys]
    old_groups = [g for key, g in groups.items() if key in old_keys]

    now = timezone.now()
    user_id = None if uploaded_by is None else uploaded_by.pk
    fixed = (user_id, visibility, now, now)
    for group in groups.values():
        for k, ready in enumerate(group):
            ready.current = k == len(group) - 1
    for group in old_groups:
        for ready in group:
            ready.game_id = existing[ready.external_id]
    if old_groups:
        writes.finish()
        _games_replace([g[-1] for g in old_groups])
    players = _players_resolve([r for r in prepared if r.current], looked_up.players, writes)

    game_rows = [(*_game_fields(g[-1]).values(), *fixed) for _, g in new_groups]
    game_ids = writes.insert(Game, GAME_FIELDS, game_rows, returning_ids=True)
    results: list[tuple[Prepared, Stored]] = []
    for ((kind, name), group), game_id in zip(new_groups, game_ids, strict=True):
        if kind == "ext":
            existing[name] = game_id  # a later chunk's version replaces it
        for k, ready in enumerate(group):
            ready.game_id = game_id
            results.append((ready, Stored.STORED if k == 0 else Stored.REPLACED))
    results.extend((ready, Stored.REPLACED) for group in old_groups for ready in group)
    record_rows = [(r.game_id, r.text, r.sha256, r.current, user_id, now) for r in prepared]
    record_ids = writes.insert(GameRecord, RECORD_FIELDS, record_rows, returning_ids=True)
    for ready, record_id in zip(prepared, record_ids, strict=True):
        ready.record_id = record_id
    reports_write(prepared, writes, players)
    return results


GAME_FIELDS = (
    "family",
    "ruleset_preset",
    "ruleset_name",
    "played_at",
    "source",
    "external_id",
    "verdict",
    "audit",
    "status",
    "players_count",
    "deals_count",
    "point_value",
    # fixed per batch:
    "uploaded_by_id",
    "visibility",
    "created_at",
    "updated_at",
)
RECORD_FIELDS = (
    "game_id",
    "text",
    "sha256",
    "current",
    "uploaded_by_id",
    "created_at",
)
REPORT_FIELDS = (
    "game_id",
    "record_id",
    "engine_version",
    "verdict",
    "audit",
    "data",
    "current",
    "created_at",
)


def _game_fields(ready: Prepared) -> dict[str, Any]:
    """The game's columns that come from its current record, in ``GAME_FIELDS`` order."""
    report = ready.report
    ruleset, meta = ready.ruleset, ready.meta
    assert report.ruleset is not None
    family = family_of(report)
    return {
        "family": family,
        "ruleset_preset": report.ruleset.preset,
        "ruleset_name": ruleset[:100]
        if isinstance(ruleset, str) and ruleset not in PRESET_FAMILIES
        else "",
        "played_at": played_at(meta),
        "source": meta_text(meta, "source"),
        "external_id": ready.external_id,
        "verdict": str(report.verdict),
        "audit": report_audit(report),
        "status": status_for(report.verdict),
        "players_count": len(report.players),
        "deals_count": report_rounds(report),
        # A settlement pays the highest total (``stats.contributions``): the trick-taking
        # family's measure only.
        "point_value": point_value(meta) if family is Family.TRICKS else None,
    }


def _games_look_up(
    uploaded_by: User, external_ids: set[str], looked_up: _LookedUp, writes: Writes
) -> None:
    """Add the games of the external ids the batch's start did not see (``_member``) to
    ``looked_up``, once the rows queued on ``writes`` are in."""
    missing = external_ids - looked_up.checked
    if missing:
        writes.finish()
        looked_up.games.update(_games_locked(uploaded_by, missing))
        looked_up.checked.update(missing)


def _games_replace(current: list[Prepared]) -> None:
    """Make room for new versions: old record and report stay as history, rows are rebuilt."""
    ids = [r.game_id for r in current]
    previous = reports_retire(ids)
    disputed = set(
        Dispute.objects.filter(game_id__in=ids, status=DisputeStatus.OPEN).values_list(
            "game_id", flat=True
        )
    )
    games = list(Game.objects.filter(pk__in=ids))
    by_id = {r.game_id: r for r in current}
    now = timezone.now()
    for game in games:
        for name, value in _game_fields(by_id[game.pk]).items():
            setattr(game, name, value)
        if game.pk in disputed:
            game.status = GameStatus.DISPUTED
        game.updated_at = now
    Game.objects.bulk_update(games, [*_game_fields(current[0]), "updated_at"])
    verdict_changes_record(previous, current, VerdictChange.Reason.REPLACED)


def reports_retire(game_ids: Sequence[int], *, records: bool = True) -> dict[int, tuple[str, str]]:
    """Mark the games' current report (and record, unless ``records`` is false: a
    re-verification keeps it) as history and drop their derived rows.

    Returns each game's previous verdict and engine version.
    """
    previous = {
        game_id: (verdict, engine)
        for game_id, verdict, engine in ReportRow.objects.filter(
            game_id__in=game_ids, current=True
        ).values_list("game_id", "verdict", "engine_version")
    }
    if records:
        GameRecord.objects.filter(game_id__in=game_ids, current=True).update(current=False)
    ReportRow.objects.filter(game_id__in=game_ids, current=True).update(current=False)
    GameSeat.objects.filter(game_id__in=game_ids).delete()
    SeatDeal.objects.filter(game_id__in=game_ids).delete()
    RummySeatDeal.objects.filter(game_id__in=game_ids).delete()
    PokerSeatHand.objects.filter(game_id__in=game_ids).delete()
    return previous


def verdict_changes_record(
    previous: Mapping[int, tuple[str, str]], current: Sequence[Prepared], reason: str
) -> int:
    """Record each game whose verdict differs from its previous report's; returns how many."""
    changes = [
        VerdictChange(
            game_id=r.game_id,
            old=previous[r.game_id][0],
            new=str(r.report.verdict),
            old_engine=previous[r.game_id][1],
            new_engine=ENGINE_VERSION,
            reason=reason,
        )
        for r in current
        if r.game_id in previous and previous[r.game_id][0] != r.report.verdict
    ]
    VerdictChange.objects.bulk_create(changes)
    return len(changes)


def _players_resolve(
    prepared: Sequence[Prepared], ids: dict[str, int], writes: Writes
) -> dict[int, tuple[list[str], list[int]]]:
    """The seats' names and player ids of each current record, by ``Prepared.index``.

    ``ids`` holds the players known so far; the others are resolved (and added to it) once
    the rows queued on ``writes`` are in.
    """
    names = {r.index: [player_column(p) for p in r.report.players] for r in prepared}
    missing = [n for group in names.values() for n in group if player_key(n) not in ids]
    if missing:
        writes.finish()
        ids.update(players_resolve(names=missing))
    return {index: (group, [ids[player_key(n)] for n in group]) for index, group in names.items()}


def reports_write(
    prepared: Sequence[Prepared],
    writes: Writes,
    players: Mapping[int, tuple[list[str], list[int]]] | None = None,
) -> None:
    """Queue a report and its findings per prepared record, and seats and seat-deals for the
    current ones; ``players`` as ``_players_resolve`` gives them, else they are looked up
    once the rows queued before are in."""
    current = [r for r in prepared if r.current]
    if players is None:
        players = _players_resolve(current, {}, writes)
    now = timezone.now()
    report_rows = [
        (
            r.game_id,
            r.record_id,
            ENGINE_VERSION,
            str(r.report.verdict),
            report_audit(r.report),
            r.data,
            r.current,
            now,
        )
        for r in prepared
    ]
    report_ids = writes.insert(ReportRow, REPORT_FIELDS, report_rows, returning_ids=True)
    findings = []
    for ready, report_id in zip(prepared, report_ids, strict=True):
        if ready.report.findings:
            findings.extend(finding_rows(report_id, ready.game_id, ready.report.findings))
    writes.insert(FindingRow, FINDING_FIELDS, findings)

    seats = []
    seat_deals = []
    rummy_deals = []
    poker_hands = []
    for ready in current:
        names, player_ids = players[ready.index]
        report = ready.report
        seats.extend(seat_rows(ready.game_id, report_standings(report), player_ids, names))
        if isinstance(report, RummyReport):
            rummy_deals.extend(rummy_seat_deal_rows(ready.game_id, report))
        elif isinstance(report, PokerReport):
            poker_hands.extend(poker_seat_hand_rows(ready.game_id, report))
        else:
            trusted = report.verdict is EngineVerdict.VERIFIED
            hook = report.ruleset is not None and report.ruleset.hook
            seat_deals.extend(
                seat_deal_rows(
                    ready.game_id, report.deals, len(player_ids), trusted=trusted, hook=hook
                )
            )
    writes.insert(GameSeat, SEAT_FIELDS, seats)
    writes.insert(SeatDeal, SEAT_DEAL_FIELDS, seat_deals)
    writes.insert(RummySeatDeal, RUMMY_SEAT_DEAL_FIELDS, rummy_deals)
    writes.insert(PokerSeatHand, POKER_SEAT_HAND_FIELDS, poker_hands)


__all__ = [
    "Entry",
    "Outcome",
    "Prepared",
    "records_store",
    "reports_retire",
    "reports_write",
    "sha256_of",
    "verdict_changes_record",
]
