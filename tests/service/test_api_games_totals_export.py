"""GET /api/games/totals.csv and totals.jsonl: visible games with their seats' totals."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.service.conftest import findings_of, post_record

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    assert response.status_code == 200, response
    return b"".join(response.streaming_content).decode()


def test_each_game_is_a_line_with_its_seats_totals_places_and_winners(
    api_client: APIClient,
    client_of: Any,
    user: Any,
    other_user: Any,
    record: Any,
    illegal_record: Any,
) -> None:
    client = client_of(user)
    stored = post_record(client, record(0)).json()["game"]
    post_record(client, record(1), visibility="private")
    post_record(client_of(other_user), illegal_record)
    response = api_client.get("/api/games/totals.jsonl", {"verdict": "verified"})
    assert response["Content-Type"] == "application/x-ndjson; charset=utf-8"
    (line,) = [json.loads(x) for x in text(response).splitlines()]
    assert (line["game"], line["ruleset"], line["verdict"], line["players"]) == (
        stored["id"],
        "classic",
        "verified",
        4,
    )
    assert line["seats"] == [
        {
            "seat": s["seat"],
            "player_id": s["player_id"],
            "player": s["name"],
            "total": s["total"],
            "place": s["place"],
            "winner": s["winner"],
        }
        for s in stored["seats"]
    ]


def test_the_csv_has_a_line_per_seat(client_of: Any, user: Any, record: Any) -> None:
    client = client_of(user)
    games = [post_record(client, record(i)).json()["game"] for i in (0, 1)]
    response = client.get("/api/games/totals.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="games.csv"'
    rows = list(csv.DictReader(io.StringIO(text(response))))
    assert len(rows) == 8
    first = games[0]["seats"][0]
    assert (rows[0]["game"], rows[0]["seat"], rows[0]["player"], rows[0]["total"]) == (
        str(games[0]["id"]),
        "0",
        first["name"],
        str(first["total"]),
    )
    assert rows[0]["winner"] in ("true", "false")
    assert [r["game"] for r in rows] == [str(games[0]["id"])] * 4 + [str(games[1]["id"])] * 4


def test_it_refuses_bad_filters_as_the_list_does(api_client: APIClient) -> None:
    response = api_client.get("/api/games/totals.csv", {"ruleset": "nonesuch"})
    assert response.status_code == 400
    assert findings_of(response)[0]["path"] == "/ruleset"
