"""GET /api/games/{id}/ and /record/: the game, its report and findings; the record as sent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.service.conftest import findings_of, post_record, text_of

pytestmark = pytest.mark.django_db


def test_it_shows_summary_seats_report_and_findings(
    api_client: APIClient, client_of: Any, user: Any, illegal_record: dict[str, Any]
) -> None:
    posted = post_record(client_of(user), illegal_record).json()
    response = api_client.get(posted["game"]["url"])
    assert response.status_code == 200
    game = response.json()
    assert game["verdict"] == "illegal" and game["status"] == "flagged"
    assert len(game["seats"]) == 4
    assert game["report"] == posted["report"]
    assert [f["code"] for f in game["findings"]] == [
        f["code"] for f in posted["report"]["findings"]
    ]
    assert game["record_url"] == f"/api/games/{game['id']}/record/"


def test_the_record_is_returned_byte_for_byte(
    api_client: APIClient, client_of: Any, user: Any, record: Callable[..., Any]
) -> None:
    # Indentation, key order and non-ASCII names must come back exactly as sent.
    game = record()
    game["players"][0] = "Анна"
    import json

    text = "\ufeff" + json.dumps(game, ensure_ascii=False, indent=1) + "\n"
    posted = post_record(client_of(user), text.encode("utf-8"))
    assert posted.status_code == 201, posted.json()
    response = api_client.get(posted.json()["game"]["url"] + "record/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.content == text.encode("utf-8")


def test_a_private_game_is_hidden_from_other_users_and_anonymous(
    api_client: APIClient, client_of: Any, user: Any, other_user: Any, staff_user: Any, record: Any
) -> None:
    url = post_record(client_of(user), record(), visibility="private").json()["game"]["url"]
    for client in (api_client, client_of(other_user)):
        for path in (url, url + "record/", url + "replay/?deal=1"):
            response = client.get(path)
            assert response.status_code == 404
            assert findings_of(response)[0]["code"] == "request.not_found"
    assert client_of(user).get(url).status_code == 200
    assert client_of(staff_user).get(url + "record/").status_code == 200


def test_an_unknown_game_is_404_with_a_finding(api_client: APIClient) -> None:
    response = api_client.get("/api/games/999999/")
    assert response.status_code == 404
    assert findings_of(response)[0]["code"] == "request.not_found"


def test_the_record_text_is_what_the_api_received(
    api_client: APIClient, client_of: Any, user: Any, record: Any
) -> None:
    text = text_of(record())
    url = post_record(client_of(user), text).json()["game"]["url"]
    assert api_client.get(url + "record/").content.decode() == text
