"""Saved games of the OhHellWeb server (``.ohw``, JSON): docs/importers.md "ohw".

The server writes one file per game when it ends: its options (``D`` decks, ``teams``),
the planned rounds (dealer, hand size), per round the turned-up trump card, the leader and
the winner of each complete trick and the claimer (-1: none), and per player the dealt
hands, bids, tricks taken, running scores and the cards played, trick by trick. Cards are
``{"num": 2…14, "suit": 0…3}`` with the suits clubs, diamonds, spades, hearts.

Its rules as a ruleset: Oh Hell with 52 cards a deck, no obligation to trump, the dealer's
hook, 2–10 players, the rounds as the schedule, its scoring table as a formula (an exact
bid scores 10 + bid², a miss −5·d·(d+1)/2), identical cards of two decks cancelling each
other, and the teams of a team game.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from replay import Code, Finding

from .base import Imported, Json, SourceError, failed, pointer, utf8_text, with_findings

RANKS = "23456789TJQKA"
SUITS = "CDSH"
FORMULA_MADE = "10 + bid^2"
FORMULA_MISSED = "-5 * d * (d + 1) / 2"


def convert(data: bytes, name: str) -> list[Imported]:
    try:
        return [_game(_json(data, name), name)]
    except SourceError as error:
        return [failed(name, error)]


def _json(data: bytes, name: str) -> Json:
    try:
        value = json.loads(utf8_text(data, name))
    except ValueError as exc:
        raise SourceError(Code.IMPORT_SOURCE, f"{name}: not JSON ({exc})") from exc
    if not isinstance(value, dict):
        raise SourceError(Code.IMPORT_SOURCE, f"{name}: not a JSON object", "")
    return value


def _get(value: Any, *path: str | int, kind: type = object) -> Any:
    """``value[path…]`` of the type ``kind``, or ``import.source`` at its pointer."""
    for i, key in enumerate(path):
        inside = isinstance(value, dict) if isinstance(key, str) else isinstance(value, list)
        if (
            not inside
            or (isinstance(key, int) and key >= len(value))
            or (isinstance(key, str) and key not in value)
        ):
            where = pointer(*path[: i + 1])
            raise SourceError(Code.IMPORT_SOURCE, f"the saved game has no {where}", where)
        value = value[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        where = pointer(*path)
        raise SourceError(Code.IMPORT_SOURCE, f"{where} is not {kind.__name__}: {value!r}", where)
    return value


def _number(source: Json, *path: str | int) -> int | float:
    value = _get(source, *path)
    if isinstance(value, bool) or not isinstance(value, int | float):
        where = pointer(*path)
        raise SourceError(Code.IMPORT_SOURCE, f"{where} is not a number: {value!r}", where)
    return value


def _card(source: Json, *path: str | int) -> str:
    num, suit = _get(source, *path, "num", kind=int), _get(source, *path, "suit", kind=int)
    if not (2 <= num <= 14 and 0 <= suit <= 3):
        where = pointer(*path)
        raise SourceError(Code.IMPORT_VALUE, f"{where} is no card: {num}, {suit}", where)
    return RANKS[num - 2] + SUITS[suit]


def _game(source: Json, name: str) -> Imported:
    findings: list[Finding] = []
    if _get(source, "mode", kind=str) != "Oh Hell":
        raise SourceError(Code.IMPORT_UNMAPPED, f"mode {source['mode']!r} is not Oh Hell", "/mode")
    players = _get(source, "players", kind=list)
    decks = _get(source, "options", "D", kind=int)
    if decks not in (1, 2):
        raise SourceError(Code.IMPORT_UNMAPPED, f"{decks} decks: only 1 or 2", "/options/D")
    rounds = _get(source, "rounds", kind=list)
    names = [_get(source, "players", i, "name", kind=str) for i in range(len(players))]
    for i in range(len(players)):
        if _get(source, "players", i, "index", kind=int) != i:
            raise SourceError(
                Code.IMPORT_SOURCE, f"player {i} has another index", pointer("players", i)
            )
    options: Json = {
        "deck": "52" if decks == 1 else "104",
        "min_players": 2,
        "max_players": 10,
        "schedule": [
            [_get(source, "rounds", r, "handSize", kind=int), "regular"] for r in range(len(rounds))
        ],
        "scoring": "formula",
        "formula_made": FORMULA_MADE,
        "formula_missed": FORMULA_MISSED,
    }
    if decks == 2:
        options["identical_cards"] = "cancel"
    if source.get("options", {}).get("teams") is True:
        options["teams"] = _teams(source, len(players))
    deals = []
    for r in range(len(rounds)):
        if not _get(source, "rounds", r, "isOver", kind=bool):
            if any(
                r < len(_get(source, "players", i, "bids", kind=list)) for i in range(len(players))
            ):
                findings.append(
                    Finding(
                        Code.IMPORT_UNMAPPED,
                        f"round {r + 1} was not finished: left out",
                        path=pointer("rounds", r),
                    )
                )
            break
        left = _left(source, len(players), r)
        if left is not None:
            findings.append(left)
            break
        deals.append(_deal(source, len(players), r))
    record: Json = {
        "format": "raspis/1",
        "ruleset": {"preset": "oh_hell", "options": options},
        "players": names,
        "first_dealer": _get(source, "rounds", 0, "dealer", kind=int) if rounds else 0,
        "meta": _meta(source),
        "deals": deals,
    }
    if deals and len(deals) == len(rounds):
        record["totals"] = [_number(source, "players", i, "score") for i in range(len(players))]
    return Imported(name, with_findings(record, "ohw", findings), tuple(findings))


def _meta(source: Json) -> Json:
    """The game's id, which is also the time its table was opened, in milliseconds since
    1970 (UTC): the record's ``played_at``."""
    meta: Json = {"source": "OhHellWeb"}
    game_id = source.get("id")
    if isinstance(game_id, int) and not isinstance(game_id, bool):
        meta["external_id"] = game_id
        opened = datetime.fromtimestamp(game_id / 1000, UTC).replace(microsecond=0)
        meta["played_at"] = opened.isoformat()
    return meta


def _teams(source: Json, players: int) -> list[list[int]]:
    teams: dict[int, list[int]] = {}
    for i in range(players):
        teams.setdefault(_get(source, "players", i, "team", kind=int), []).append(i)
    return [teams[t] for t in sorted(teams)]


def _left(source: Json, players: int, r: int) -> Finding | None:
    """The finding of a seat that no longer plays in round ``r`` (kicked, or gone): a
    record's seats play every deal, so the record ends before it."""
    for i in range(players):
        player = _get(source, "players", i, kind=dict)
        if player.get("kicked") is True or r >= len(_get(source, "players", i, "bids", kind=list)):
            return Finding(
                Code.IMPORT_UNMAPPED,
                f"{player.get('name')} does not play round {r + 1} (kicked): the record ends"
                " before it",
                seat=i,
                path=pointer("players", i),
            )
    return None


def _deal(source: Json, players: int, r: int) -> Json:
    seats = range(players)
    leaders = _get(source, "leaders", r, kind=list)
    tricks = []
    for t in range(len(leaders)):
        leader = _get(source, "leaders", r, t, kind=int)
        order = [(leader + k) % players for k in seats]
        plays = [_card(source, "players", s, "plays", r, t) for s in order]
        tricks.append({"leader": leader, "plays": plays})
    running = [_number(source, "players", i, "scores", r) for i in seats]
    before = [0 if r == 0 else _number(source, "players", i, "scores", r - 1) for i in seats]
    deal: Json = {
        "cards": _get(source, "rounds", r, "handSize", kind=int),
        "dealer": _get(source, "rounds", r, "dealer", kind=int),
        "hands": [
            [
                _card(source, "players", i, "hands", r, c)
                for c in range(len(_get(source, "players", i, "hands", r, kind=list)))
            ]
            for i in seats
        ],
        "trump_card": _card(source, "trumps", r),
        "bids": [_get(source, "players", i, "bids", r, kind=int) for i in seats],
        "tricks": tricks,
        "taken": [_get(source, "players", i, "takens", r, kind=int) for i in seats],
        "scores": [now - then for now, then in zip(running, before, strict=True)],
        "running": running,
    }
    claims = source.get("claims", [])
    claimer = claims[r] if isinstance(claims, list) and r < len(claims) else -1
    if isinstance(claimer, int) and not isinstance(claimer, bool) and claimer >= 0:
        deal["claim"] = {"seat": claimer}
    return deal
