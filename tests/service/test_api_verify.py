"""POST /api/verify/: a report for any body, stored nowhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from games.models import Game, GameRecord
from tests.service.conftest import findings_of, text_of

pytestmark = pytest.mark.django_db


def test_it_returns_the_report_of_a_legal_record_without_storing_it(
    api_client: APIClient, record: Callable[..., dict[str, Any]]
) -> None:
    response = api_client.post("/api/verify/", text_of(record()), content_type="application/json")
    assert response.status_code == 200
    report = response.json()
    assert report["verdict"] == "verified"
    assert report["audit"] == "full"
    assert len(report["deals"]) == 36
    assert Game.objects.count() == GameRecord.objects.count() == 0


def test_it_reports_an_illegal_record_with_the_place_of_the_broken_rule(
    api_client: APIClient, illegal_record: dict[str, Any]
) -> None:
    response = api_client.post(
        "/api/verify/", text_of(illegal_record), content_type="application/json"
    )
    assert response.status_code == 200
    report = response.json()
    assert report["verdict"] == "illegal"
    where = illegal_record["meta"]["corruption"]
    revoke = [f for f in report["findings"] if f["code"] == "play.revoke"]
    assert [(f["deal"], f["trick"]) for f in revoke] == [(where["deal"], where["trick"])]


def test_it_accepts_raw_text(api_client: APIClient, record: Callable[..., Any]) -> None:
    response = api_client.post("/api/verify/", text_of(record()), content_type="text/plain")
    assert response.status_code == 200
    assert response.json()["verdict"] == "verified"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{not json", "record.json"),
        (b"\xff\xfe garbage", "record.json"),
        (b"[1, 2]", "record.json"),
        (b'{"format": "raspis/1"}', "record.schema"),
    ],
)
def test_it_answers_a_malformed_body_with_a_malformed_report(
    api_client: APIClient, body: bytes, code: str
) -> None:
    response = api_client.post("/api/verify/", body, content_type="application/json")
    assert response.status_code == 200
    report = response.json()
    assert report["verdict"] == "malformed"
    assert report["deals"] == [] and report["totals"] is None
    assert code in {f["code"] for f in report["findings"]}


def test_it_reports_wrong_types_with_a_json_pointer(
    api_client: APIClient, record: Callable[..., dict[str, Any]]
) -> None:
    game = record()
    game["deals"][2]["bids"] = "many"
    response = api_client.post("/api/verify/", text_of(game), content_type="application/json")
    report = response.json()
    assert report["verdict"] == "malformed"
    assert "/deals/2/bids" in {f.get("path") for f in report["findings"]}


@override_settings(RASPIS_MAX_UPLOAD_BYTES=100)
def test_it_refuses_a_body_past_the_limit_with_413(
    api_client: APIClient, record: Callable[..., Any]
) -> None:
    response = api_client.post("/api/verify/", text_of(record()), content_type="application/json")
    assert response.status_code == 413
    (finding,) = findings_of(response)
    assert finding["code"] == "request.too_large"
    assert finding["expected"] == 100


@pytest.mark.parametrize("change", ["taken", "bids", "options"])
def test_numbers_past_a_float_s_range_get_a_report_not_a_500(
    api_client: APIClient, record: Callable[..., dict[str, Any]], change: str
) -> None:
    """Sheet deals under a 3/2 multiplier claiming a taken or a bid of 10**400, or a ruleset
    scoring a made bid at 1e308: the replay kept such scores as floats, and converting them
    raised OverflowError out of the engine (a 500, for anyone, here and on every store)."""
    game = record(0)
    if change == "options":
        options = {"pass_made": 1e308, "made_per_trick": -1e308}
        game["ruleset"] = {"preset": "classic", "options": options}
        for deal in game["deals"]:
            del deal["scores"], deal["running"]
        del game["totals"]
    else:
        for deal in game["deals"][20:24]:
            assert deal["kind"] == "no_trump"
            del deal["tricks"], deal["hands"]
            deal[change] = [10**400 + 1, 0, 0, 0]
    response = api_client.post("/api/verify/", text_of(game), content_type="application/json")
    assert response.status_code == 200
    report = response.json()
    assert report["verdict"] == ("verified" if change == "options" else "illegal")
    assert max(abs(t) for t in report["totals"]) > 10**300
