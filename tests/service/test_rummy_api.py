"""Rummy records through the API: ``/api/verify/`` answers them, ``/api/games/`` keeps them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from replay.rummy.simulate import simulate_game

pytestmark = pytest.mark.django_db


def test_verify_answers_a_rummy_record(api_client: APIClient) -> None:
    record = simulate_game("joker_rummy", 3, 1)
    response = api_client.post("/api/verify/", json.dumps(record), content_type="application/json")
    assert response.status_code == 200
    report = response.json()
    assert (report["verdict"], report["audit"]) == ("verified", "full")
    assert report["ruleset"]["preset"] == "joker_rummy"
    assert report["totals"] == record["totals"]


def test_verify_locates_a_rummy_finding_by_turn_and_action(api_client: APIClient) -> None:
    record = simulate_game("joker_rummy", 3, 1, corrupt_mode="meld.invalid")
    where = record["meta"]["corruption"]
    response = api_client.post("/api/verify/", json.dumps(record), content_type="application/json")
    first = response.json()["findings"][0]
    assert {k: first[k] for k in where} == where


def test_a_stored_rummy_game_is_read_back_with_its_report(client_of: Any, user: Any) -> None:
    record = simulate_game("joker_rummy", 2, 1)
    client = client_of(user)
    response = client.post("/api/games/", json.dumps(record), content_type="application/json")
    assert response.status_code == 201
    game = client.get(response.json()["game"]["url"]).json()
    assert (game["family"], game["ruleset"]) == ("rummy", "joker_rummy")
    assert game["report"]["totals"] == record["totals"]
