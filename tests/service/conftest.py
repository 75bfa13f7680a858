"""Fixtures for the service tests: simulated records, signed-in clients, committed callbacks.

Records come from the engine's simulator (seeded), made once per session since simulating a
game takes tens of milliseconds; ``record()`` hands out a fresh copy to change at will.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from config.celery import app
from replay.simulate import simulate_game
from verification.services.records import game_store

Record = dict[str, Any]
SEED = 20261129


@pytest.fixture(scope="session")
def _records() -> list[Record]:
    return [simulate_game("classic", 4, SEED + i) for i in range(4)]


@pytest.fixture
def record(_records: list[Record]) -> Callable[..., Record]:
    """``record(i)``: a copy of legal simulated game ``i`` (0-3), four players, classic."""

    def make(i: int = 0) -> Record:
        return copy.deepcopy(_records[i])

    return make


@pytest.fixture(scope="session")
def illegal_record() -> Record:
    """A classic game with one revoke: verdict illegal."""
    return simulate_game("classic", 4, SEED, corrupt="revoke")


@pytest.fixture(scope="session")
def mismatch_record() -> Record:
    """A classic game with one miscounted deal score: verdict mismatch."""
    return simulate_game("classic", 4, SEED, corrupt="wrong_score")


def text_of(record: Record) -> str:
    return json.dumps(record, ensure_ascii=False)


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings: Any) -> None:
    """The production hasher spends half a second on each of the users a test makes; tests
    need no strong hash."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


#: The OpenAPI document, as JSON.
Document = dict[str, Any]


@pytest.fixture(scope="module")
def document() -> Document:
    """The schema as ``/api/schema/`` serves it; it depends on no row, so one per module."""
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema: Document = response.json()
    return schema


@pytest.fixture
def client_of() -> Callable[[Any], APIClient]:
    def make(user: Any) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make


@pytest.fixture
def reviewer(django_user_model: Any) -> Any:
    """Staff with every permission: the admin's reviewer."""
    return django_user_model.objects.create_superuser(username="gleb", password=None)


@pytest.fixture
def admin_web(reviewer: Any) -> Client:
    """A browser signed in to the admin as ``reviewer``."""
    client = Client()
    client.force_login(reviewer)
    return client


@pytest.fixture
def committed(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> Iterator[Callable[[], AbstractContextManager[Any]]]:
    """``with committed(): ...`` runs what waits for the commit at the end, tasks included:
    they run in the test, eagerly, even when a broker is configured."""
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield lambda: django_capture_on_commit_callbacks(execute=True)
    finally:
        app.conf.task_always_eager = eager


def store_game(record: Record, by: Any, visibility: str = "public") -> int:
    """Store a record through the service the API uses; the id of its game."""
    outcome = game_store(text=text_of(record), value=record, uploaded_by=by, visibility=visibility)
    assert outcome.game_id is not None, outcome.findings
    return outcome.game_id


def post_record(client: APIClient, record: Record | str | bytes, **params: str) -> Any:
    body = record if isinstance(record, str | bytes) else text_of(record)
    query = "&".join(f"{k}={v}" for k, v in params.items())
    url = "/api/games/" + (f"?{query}" if query else "")
    return client.post(url, body, content_type="application/json")


def findings_of(response: Any) -> list[dict[str, Any]]:
    """The findings of an error answer, checked to have exactly docs/format.md's fields."""
    body = response.json()
    assert set(body) == {"findings"}, body
    fields = {"code", "severity", "deal", "trick", "play", "seat", "player", "message"}
    for finding in body["findings"]:
        assert fields | {"expected", "actual", "path"} == set(finding), finding
    findings: list[dict[str, Any]] = body["findings"]
    return findings
