"""Poker records through the API: /api/verify/ answers the poker report, /api/games/ keeps
them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from games.models import Game

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "poker"


def test_it_answers_the_poker_report_of_a_poker_record(api_client: APIClient) -> None:
    text = (GOLDEN / "club_betting_errors.record.json").read_text(encoding="utf-8")
    response = api_client.post("/api/verify/", text, content_type="application/json")
    assert response.status_code == 200
    report = response.json()
    want = json.loads((GOLDEN / "club_betting_errors.report.json").read_text(encoding="utf-8"))
    assert report["verdict"] == "illegal"
    assert report["findings"] == want["findings"]
    assert report["hands"] == want["hands"]
    assert Game.objects.count() == 0


def test_a_stored_poker_game_is_read_back_with_its_hands(
    api_client: APIClient, django_user_model: type
) -> None:
    user = django_user_model.objects.create_user("anna", password="pw-long-enough-123")
    api_client.force_authenticate(user)
    text = (GOLDEN / "club_fold_to_a_bet.record.json").read_text(encoding="utf-8")
    response = api_client.post("/api/games/", text, content_type="application/json")
    assert response.status_code == 201
    want = json.loads((GOLDEN / "club_fold_to_a_bet.report.json").read_text(encoding="utf-8"))
    game = api_client.get(response.json()["game"]["url"]).json()
    assert (game["family"], game["deals_count"]) == ("poker", len(want["hands"]))
    assert game["report"]["hands"] == want["hands"]
