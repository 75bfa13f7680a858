"""GET /api/games/{id}/replay/: the table at one moment of a stored game."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.service.conftest import findings_of, post_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def url(client_of: Any, user: Any, record: Any) -> str:
    return post_record(client_of(user), record()).json()["game"]["url"] + "replay/"


def test_it_shows_the_hands_left_and_the_trick_so_far(api_client: APIClient, url: str) -> None:
    response = api_client.get(url, {"deal": 3, "trick": 2, "play": 1})
    assert response.status_code == 200
    state = response.json()
    assert (state["deal"], state["trick"], state["play"]) == (3, 2, 1)
    assert len(state["trick_so_far"]) == 1
    assert sum(len(hand) for hand in state["hands"]) == 4 * 3 - 4 - 1
    assert state["verdict"] == "verified"


def test_without_a_trick_it_shows_the_deal_complete(api_client: APIClient, url: str) -> None:
    state = api_client.get(url, {"deal": 2}).json()
    assert sum(state["taken"]) == 2
    assert state["scores"] is not None


@pytest.mark.parametrize(
    ("params", "path"),
    [
        ({}, "/deal"),
        ({"deal": "two"}, "/deal"),
        ({"deal": 0}, "/deal"),
        ({"deal": 1, "play": 1}, "/play"),
    ],
)
def test_bad_parameters_are_refused_with_findings(
    api_client: APIClient, url: str, params: dict[str, Any], path: str
) -> None:
    response = api_client.get(url, params)
    assert response.status_code == 400
    (finding,) = findings_of(response)
    assert (finding["code"], finding["path"]) == ("request.invalid", path)


@pytest.mark.parametrize(
    ("params", "path", "expected", "message"),
    [
        ({"deal": 99}, "/deal", "1…36", "deal 99 does not exist"),
        ({"deal": 10**20}, "/deal", "1…36", f"deal {10**20} does not exist"),
        ({"deal": 3, "trick": 4}, "/trick", "1…3", "trick 4 does not exist in deal 3"),
        (
            {"deal": 3, "trick": 2, "play": 5},
            "/play",
            "0…4",
            "play 5 does not exist in trick 2 of deal 3",
        ),
    ],
)
def test_a_moment_the_game_does_not_have_is_refused_at_its_parameter(
    api_client: APIClient,
    url: str,
    params: dict[str, Any],
    path: str,
    expected: str,
    message: str,
) -> None:
    """The record is sound; the query asks past it: request.invalid at the parameter, as
    docs/format.md ("API errors") says, not a record.schema finding pointing into the record."""
    response = api_client.get(url, params)
    assert response.status_code == 400
    (finding,) = findings_of(response)
    assert (finding["code"], finding["path"], finding["message"]) == (
        "request.invalid",
        path,
        message,
    )
    assert (finding["expected"], finding["actual"]) == (expected, params[path[1:]])
