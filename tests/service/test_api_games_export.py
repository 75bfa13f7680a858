"""GET /api/games/export.jsonl: the stored records, one a line, filtered like the list."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.service.conftest import post_record, text_of

pytestmark = pytest.mark.django_db


def lines(response: Any) -> list[str]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-ndjson")
    body = b"".join(response.streaming_content).decode()
    assert body == "" or body.endswith("\n")
    return body.split("\n")[:-1]  # JSON Lines end at \n only; a record may hold U+2028


def test_it_streams_the_visible_records_one_a_line(
    api_client: APIClient, client_of: Any, user: Any, record: Any
) -> None:
    client = client_of(user)
    public, private = text_of(record(0)), text_of(record(1))
    post_record(client, public)
    post_record(client, private, visibility="private")
    assert lines(api_client.get("/api/games/export.jsonl")) == [public]
    assert sorted(lines(client.get("/api/games/export.jsonl"))) == sorted([public, private])


def test_it_takes_the_list_filters(
    api_client: APIClient, client_of: Any, user: Any, record: Any, illegal_record: Any
) -> None:
    client = client_of(user)
    post_record(client, record(0))
    post_record(client, illegal_record)
    exported = lines(api_client.get("/api/games/export.jsonl", {"verdict": "illegal"}))
    assert [json.loads(line)["meta"] for line in exported] == [illegal_record["meta"]]


def test_a_record_spanning_lines_is_written_on_one(
    api_client: APIClient, client_of: Any, user: Any, record: Any
) -> None:
    game = dict(record(), players=["Вера\u2028", "Глеб", "Анна", "Борис"])
    text = "\ufeff" + json.dumps(game, indent=2, ensure_ascii=False).replace("\n", "\r\n")
    post_record(client_of(user), text.encode())
    (line,) = lines(api_client.get("/api/games/export.jsonl"))
    assert json.loads(line) == game
    assert line == text[1:].replace("\r\n", "  ")
