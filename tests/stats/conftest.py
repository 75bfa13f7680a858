"""Helpers of the statistics tests: hand-made records, and storing games the way the service
does (``verification.services.records_store``) followed by the statistics update the signal would
queue (inside a test's transaction, on-commit callbacks never run)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from stats.services import stats_update_games
from verification.services.store import Entry, records_store

#: Two deals only (RULES §9 ``schedule``), so that games are tiny and complete.
SHORT = {"preset": "classic", "options": {"schedule": [[1, "regular"], [2, "regular"]]}}

# Classic, three players, dealer Anna: Boris bids first and leads, Anna bids last (the hook).
# Deal 1 (trump hearts): Boris AH, Vera 6D, Anna's joker 7S high takes it.
#   Bids Anna 1, Boris 1, Vera 0; taken 1, 0, 0; scores 10, -10, 5.
# Deal 2 (trump diamonds, dealer Boris, Vera leads, Boris bids last): Vera QS, Anna KS,
#   Boris AS; Boris 7C, Vera 8H, Anna 6C. Bids 1, 0, 0; taken 0, 2, 0; scores -10, 2, 5.
# Totals 0, -8, 10: Vera wins. One point is worth 1.
GAME_1: dict[str, Any] = {
    "format": "raspis/1",
    "ruleset": SHORT,
    "players": ["Anna", "Boris", "Vera"],
    "first_dealer": 0,
    "meta": {"played_at": "2025-03-10T19:00:00+00:00", "point_value": 1},
    "deals": [
        {
            "cards": 1,
            "hands": [["7S"], ["AH"], ["6D"]],
            "trump_card": "9H",
            "bids": [1, 1, 0],
            "tricks": [["AH", "6D", "7S+"]],
        },
        {
            "cards": 2,
            "hands": [["KS", "6C"], ["AS", "7C"], ["QS", "8H"]],
            "trump_card": "TD",
            "bids": [1, 0, 0],
            "tricks": [["QS", "KS", "AS"], ["7C", "8H", "6C"]],
        },
    ],
    "totals": [0, -8, 10],
}

# Seats Boris, Anna, Vera; dealer Vera: Boris bids first and leads, Vera bids last.
# Deal 1 (trump spades): Boris AC, Anna KC, Vera TC. Bids 1, 0, 1; taken 1, 0, 0;
#   scores Boris 10, Anna 5, Vera -10.
# Deal 2 (trump hearts, dealer Boris, Anna leads, Boris bids last): Anna AH, Vera 7D,
#   Boris 9D; Anna 6C, Vera KC, Boris 8C. Bids Boris 0, Anna 1, Vera 0; taken 0, 1, 1;
#   scores Boris 5, Anna 10, Vera 1 (over by one).
# Totals 15, 15, -9: Boris and Anna share the win. One point is worth 2.
GAME_2: dict[str, Any] = {
    "format": "raspis/1",
    "ruleset": SHORT,
    "players": ["Boris", "Anna", "Vera"],
    "first_dealer": 2,
    "meta": {"played_at": "2025-04-02T19:00:00+00:00", "point_value": 2},
    "deals": [
        {
            "cards": 1,
            "hands": [["AC"], ["KC"], ["TC"]],
            "trump_card": "6S",
            "bids": [1, 0, 1],
            "tricks": [["AC", "KC", "TC"]],
        },
        {
            "cards": 2,
            "hands": [["8C", "9D"], ["AH", "6C"], ["KC", "7D"]],
            "trump_card": "6H",
            "bids": [0, 1, 0],
            "tricks": [["AH", "7D", "9D"], ["6C", "KC", "8C"]],
        },
    ],
    "totals": [15, 15, -9],
}


def record(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A copy of ``base`` with top-level fields (or ``meta`` keys via ``meta=``) changed."""
    out = copy.deepcopy(base)
    meta = changes.pop("meta", None)
    out.update(changes)
    if meta:
        out["meta"] = {**out.get("meta", {}), **meta}
    return out


def named(record: dict[str, Any], names: Sequence[str] = ("Anna", "Boris", "Vera")) -> Any:
    """``record`` (of any family) with its seats named ``names``, in seat order."""
    if "seats" in record:  # a poker record names its seats in objects
        for seat, name in zip(record["seats"], names, strict=True):
            seat["name"] = name
    else:
        record["players"] = list(names)
    return record


def store_records(
    records: list[dict[str, Any]], *, visibility: str = "public", user: Any = None
) -> list[int]:
    """Store records as the service does, then update the statistics; the games' ids. By
    default a staff account uploads them, so that they are rated (docs/trust.md)."""
    outcomes = records_store(
        entries=[Entry(json.dumps(r), r) for r in records],
        uploaded_by=staff_uploader() if user is None else user,
        visibility=visibility,
    )
    ids = [o.game_id for o in outcomes]
    assert all(i is not None for i in ids), [o.findings for o in outcomes]
    stats_update_games(game_ids=[i for i in ids if i is not None])
    return [i for i in ids if i is not None]


def staff_uploader() -> Any:
    from django.contrib.auth.models import User

    return User.objects.get_or_create(username="club-staff", defaults={"is_staff": True})[0]


@pytest.fixture
def store() -> Callable[..., list[int]]:
    return store_records


def won_by(winner: str, second: str, third: str, played_at: str) -> dict[str, Any]:
    """``GAME_1`` with its seats renamed: ``winner`` 10, ``second`` 0, ``third`` −8."""
    return record(GAME_1, players=[second, third, winner], meta={"played_at": played_at})


@pytest.fixture
def two_games(store: Callable[..., list[int]]) -> list[int]:
    """``GAME_1`` (March 2025) and ``GAME_2`` (April 2025), stored and counted."""
    return store([GAME_1, GAME_2])


def player_id(name: str) -> int:
    from games.models import Player

    return Player.objects.get(name=name).pk


def conforms(serializer_class: Any, data: Any, *, many: bool = False) -> None:
    """The answer has the shape the schema documents (its output serializer)."""
    serializer = serializer_class(data=data, many=many)
    assert serializer.is_valid(), serializer.errors
