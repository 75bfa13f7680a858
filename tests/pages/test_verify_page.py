"""Verifying on the home page without a browser: what is posted, what comes back, nothing kept."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.models import Game
from web.forms import VERIFY_MAX_RECORDS

pytestmark = pytest.mark.django_db


def test_a_file_of_json_lines_gets_one_report_per_record(
    make_record: Callable[..., dict[str, Any]],
) -> None:
    lines = [json.dumps(make_record()), "{broken", json.dumps(make_record(corrupt="revoke"))]
    upload = SimpleUploadedFile("games.jsonl", "\n".join(lines).encode(), "application/x-ndjson")
    response = Client().post("/verify/", {"file": upload})
    assert response.status_code == 200
    page = response.content.decode()
    verdicts = [r.view.verdict for r in response.context["results"]]
    assert verdicts == ["verified", "malformed", "illegal"]
    # Each record's replay is its own, and its findings move it.
    assert 'id="replay-1"' in page and 'id="replay-3"' in page
    assert 'data-replay-target="replay-3"' in page
    assert Game.objects.count() == 0


def test_nothing_posted_is_a_400_with_the_form_saying_so() -> None:
    response = Client().post("/verify/", {"record": "  "})
    assert response.status_code == 400
    assert "Paste a record or choose a file." in response.content.decode()


def test_more_records_than_a_page_verifies_are_sent_to_an_upload() -> None:
    text = "\n".join("{}" for _ in range(VERIFY_MAX_RECORDS + 1))
    response = Client().post("/verify/", {"record": text})
    assert response.status_code == 400
    assert f"at most {VERIFY_MAX_RECORDS}" in response.content.decode()


def test_the_report_is_in_the_readers_language(make_record: Callable[..., Any]) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    page = client.post("/verify/", {"record": json.dumps(make_record(corrupt="revoke"))})
    text = page.content.decode()
    assert "нарушение" in text and "не пошёл (не пошла) в масть" in text
    assert 'lang="ru"' in text


def test_the_language_cookie_wins_over_the_browser() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert "Verify a record now" in client.get("/").content.decode()


def test_the_api_keeps_to_english_for_a_russian_browser() -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/api/games/?verdict=great")
    assert response.status_code == 400
    [finding] = response.json()["findings"]
    assert finding["message"].startswith("verdict: Select a valid choice")
    assert response["Content-Language"] == "en"


def test_the_page_counts_its_records_with_the_apis_verify_rate(
    make_record: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each record verified on the page is one of the API's verifications: the form is no
    way around the rate."""
    from core.throttles import WriteThrottle

    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"verify": "3/min"})
    client = Client()
    two = "\n".join(json.dumps(make_record(seed=s)) for s in (1, 2))
    file = SimpleUploadedFile("two.jsonl", two.encode())
    assert client.post("/verify/", {"file": file}).status_code == 200
    refused = client.post("/verify/", {"file": SimpleUploadedFile("two.jsonl", two.encode())})
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "Too many verifications" in refused.content.decode()
    api = client.post("/api/verify/", json.dumps(make_record()), content_type="application/json")
    assert api.status_code == 429
