"""``…/export.csv`` and ``…/export.jsonl``: a leaderboard and a player's statistics as rows."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from stats.selectors import EXPORT_COLUMNS

from .conftest import player_id, won_by

pytestmark = pytest.mark.django_db


def body(response: Any, media_type: str) -> str:
    assert response.status_code == 200
    assert response["Content-Type"] == f"{media_type}; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    return b"".join(response.streaming_content).decode()


def csv_rows(response: Any) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(body(response, "text/csv"))))


def jsonl_rows(response: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in body(response, "application/x-ndjson").splitlines()]


def test_a_players_statistics_are_one_line_per_ruleset_key_overall_first(
    api_client: APIClient, two_games: Any
) -> None:
    anna = player_id("Anna")
    lines = jsonl_rows(api_client.get(f"/api/players/{anna}/stats/export.jsonl"))
    assert [line["ruleset"] for line in lines] == ["", "classic"]
    overall, classic = lines
    stats = api_client.get(f"/api/players/{anna}/stats/", {"ruleset": "classic"}).json()
    assert (classic["games"], classic["win_rate"], classic["average_total"]) == (
        stats["games"],
        stats["win_rate"],
        stats["average_total"],
    )
    assert (classic["exact_rate"], classic["balance"]) == (0.75, 14)
    assert overall["average_total"] is None and "mu" not in overall
    rating = api_client.get(f"/api/players/{anna}/ratings/").json()[0]
    assert (classic["mu"], classic["ordinal"]) == (rating["mu"], rating["ordinal"])
    table = csv_rows(api_client.get(f"/api/players/{anna}/stats/export.csv"))
    assert list(table[0]) == list(EXPORT_COLUMNS)
    assert (table[0]["ruleset"], table[0]["average_total"], table[0]["mu"]) == ("", "", "")
    classic_line = (table[1]["ruleset"], table[1]["games"], table[1]["best_total"])
    assert classic_line == ("classic", "2", "15")


def test_a_player_without_counted_games_has_no_export(api_client: APIClient) -> None:
    response = api_client.get("/api/players/4242/stats/export.csv")
    assert response.status_code == 404
    assert response.json()["findings"][0]["code"] == "request.not_found"


def test_a_leaderboard_is_one_line_per_ranked_player(
    api_client: APIClient, store: Any, settings: Any
) -> None:
    settings.RASPIS_LEADERBOARD_MIN_GAMES = 1
    settings.RASPIS_LEADERBOARD_MAX_SIGMA = 100.0
    settings.RASPIS_LEADERBOARD_ACTIVE_DAYS = 36500
    store([won_by("=Anna", "Boris", "Vera", "2025-03-01T20:00:00Z")])
    board = api_client.get("/api/leaderboards/classic/").json()["entries"]
    lines = jsonl_rows(api_client.get("/api/leaderboards/classic/export.jsonl"))
    assert lines == board
    table = csv_rows(api_client.get("/api/leaderboards/classic/export.csv", {"limit": 2}))
    assert [(r["rank"], r["player_id"]) for r in table] == [
        (str(e["rank"]), str(e["player"]["id"])) for e in board[:2]
    ]
    # A name a spreadsheet would take for a formula stays a name.
    assert table[0]["player"] == "'=Anna"
    assert table[0]["mu"] == str(board[0]["mu"])


def test_a_leaderboard_export_checks_its_parameters(api_client: APIClient) -> None:
    response = api_client.get("/api/leaderboards/classic/export.csv", {"limit": "0"})
    assert response.status_code == 400
    assert response.json()["findings"][0]["path"] == "/limit"
    missing = api_client.get("/api/leaderboards/classic/export.csv", {"date": "2025-01-01"})
    assert missing.status_code == 404


def test_an_export_names_its_file_with_header_safe_characters_only(api_client: APIClient) -> None:
    """A ruleset key is the reader's text; the file's name in the header keeps no control
    character or quote (a server refuses to send such a header)."""
    response = api_client.get("/api/leaderboards/%0E%22x/export.csv")
    assert response["Content-Disposition"] == 'attachment; filename="leaderboard-__x.csv"'
