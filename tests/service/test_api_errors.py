"""Every refused request answers {"findings": [...]} in docs/format.md's shape, no traceback."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework.test import APIClient

from core.exceptions import api_exception_handler
from games.models import Dispute, Game, StoredRuleset
from games.selectors import UtcIsoDateTimeField
from games.services import dispute_open
from tests.service.conftest import findings_of, post_record, store_game
from verification.services.rows import played_at

pytestmark = pytest.mark.django_db


def test_an_unknown_api_url_is_404_with_a_finding(api_client: APIClient) -> None:
    response = api_client.get("/api/nothing-here/")
    assert response.status_code == 404
    assert findings_of(response)[0]["code"] == "request.not_found"


def test_a_wrong_method_is_405_with_a_finding(api_client: APIClient) -> None:
    response = api_client.delete("/api/verify/")
    assert response.status_code == 405
    assert findings_of(response)[0]["code"] == "request.method"


def test_a_body_that_is_not_json_is_400_with_a_finding(client_of: Any, user: Any) -> None:
    response = client_of(user).post("/api/rulesets/", b"{name", content_type="application/json")
    assert response.status_code == 400
    assert findings_of(response)[0]["code"] == "request.json"


def test_a_bad_token_is_401_with_a_finding(api_client: APIClient) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api_client.get("/api/games/")
    assert response.status_code == 401
    assert findings_of(response)[0]["code"] == "request.unauthenticated"


def test_a_token_signs_a_user_in(api_client: APIClient, user: Any) -> None:
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api_client.get("/api/uploads/").status_code == 200


def test_the_schema_documents_every_endpoint(api_client: APIClient) -> None:
    paths = api_client.get("/api/schema/", {"format": "json"}).json()["paths"]
    for path in [
        "/api/verify/",
        "/api/games/",
        "/api/games/{game_id}/",
        "/api/games/{game_id}/record/",
        "/api/games/{game_id}/replay/",
        "/api/games/{game_id}/disputes/",
        "/api/games/export.jsonl",
        "/api/uploads/",
        "/api/uploads/{upload_id}/",
        "/api/disputes/",
        "/api/disputes/{dispute_id}/resolve/",
        "/api/rulesets/",
    ]:
        assert path in paths
    assert {"get", "post"} <= set(paths["/api/games/"])


@pytest.mark.parametrize("url", ["/api/games/", "/api/uploads/", "/api/disputes/", "/api/players/"])
@pytest.mark.parametrize("page", ["0", "two"])
def test_every_list_refuses_a_page_that_is_not_a_positive_integer(
    client_of: Any, user: Any, url: str, page: str
) -> None:
    response = client_of(user).get(url, {"page": page})
    assert response.status_code == 400
    finding = findings_of(response)[0]
    assert (finding["code"], finding["path"]) == ("request.invalid", "/page")


@pytest.mark.parametrize("url", ["/api/games/", "/api/uploads/", "/api/disputes/", "/api/players/"])
def test_every_list_answers_a_page_past_the_last_with_not_found(
    client_of: Any, user: Any, url: str
) -> None:
    client = client_of(user)
    assert client.get(url, {"page": "1"}).status_code == 200
    response = client.get(url, {"page": "3"})
    assert response.status_code == 404
    assert findings_of(response)[0]["message"] == "page 3 is past the last page"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(
    api_client: APIClient, client_of: Any, user: Any, constant: str
) -> None:
    """Python's reader takes them; a report quoting one back could then not be written."""
    body = '{"format": "raspis/1", "ruleset": "classic", "players": ' + constant + "}"
    checked = api_client.post("/api/verify/", body, content_type="application/json")
    assert checked.status_code == 200
    report = checked.json()
    assert report["verdict"] == "malformed"
    assert [f["code"] for f in report["findings"]] == ["record.json"]
    stored = client_of(user).post("/api/games/", body, content_type="application/json")
    assert stored.status_code == 400
    (finding,) = findings_of(stored)
    assert finding["code"] == "record.json"
    assert constant.lstrip("-") in finding["message"]


# -- found by fuzzing: inputs that used to answer 500 ---------------------------------------

HUGE_ID = "99999999999999999999999"  # past any row's id; SQLite cannot compare it


@pytest.mark.parametrize(
    "url",
    [
        f"/api/players/{HUGE_ID}/",
        f"/api/players/{HUGE_ID}/stats/",
        f"/api/players/{HUGE_ID}/ratings/",
        f"/api/players/1/versus/{HUGE_ID}/",
        f"/api/players/{HUGE_ID}/versus/1/",
    ],
)
def test_a_player_id_past_any_row_is_404_with_a_finding(api_client: APIClient, url: str) -> None:
    response = api_client.get(url)
    assert response.status_code == 404
    assert findings_of(response)[0]["code"] == "request.not_found"


@pytest.mark.parametrize("url", ["/api/games/", "/api/games/export.jsonl"])
@pytest.mark.parametrize(
    ("param", "value"),
    [("played_from", "9999-12-31T23:59:59-23:00"), ("played_to", "0001-01-01T00:00:00+14:00")],
)
def test_a_date_filter_with_no_utc_time_is_400_with_a_finding(
    api_client: APIClient, url: str, param: str, value: str
) -> None:
    response = api_client.get(url, {param: value})
    assert response.status_code == 400
    (finding,) = findings_of(response)
    assert (finding["code"], finding["path"]) == ("request.invalid", f"/{param}")


@pytest.mark.parametrize("url", ["/api/games/", "/api/games/export.jsonl"])
@pytest.mark.parametrize("param", ["played_from", "played_to"])
def test_a_date_filter_with_an_offset_past_postgresql_s_is_compared_in_utc(
    api_client: APIClient, user: Any, record: Any, url: str, param: str
) -> None:
    """Python reads offsets up to 23:59, PostgreSQL only up to 15:59 (else a DataError)."""
    game = record(0)
    game["meta"] = {"played_at": "2022-05-20T12:00:00Z"}
    store_game(game, user)
    value = "2022-05-21T04:43:00+16:43" if param == "played_from" else "2022-05-20T20:00:00+08:01"
    response = api_client.get(url, {param: value})
    assert response.status_code == 200, response.content[:300]
    assert UtcIsoDateTimeField().to_python(value).utcoffset() == dt.timedelta(0)


def test_a_played_at_with_an_offset_past_postgresql_s_is_stored_in_utc(
    client_of: Any, user: Any, record: Any
) -> None:
    game = record(0)
    game["meta"] = {"played_at": "2022-07-30T20:25:00+16:43"}
    response = post_record(client_of(user), game)
    assert response.status_code == 201, response.content[:300]
    assert response.json()["game"]["played_at"] == "2022-07-30T03:42:00Z"
    assert played_at(game["meta"]).utcoffset() == dt.timedelta(0)


def test_a_played_at_with_no_utc_time_is_stored_as_unknown(
    client_of: Any, user: Any, record: Any
) -> None:
    """meta is free: a date the database cannot hold is left out, like an unreadable one."""
    game = record(0)
    game["meta"] = {"played_at": "9999-12-31T23:59:59-23:59"}
    response = post_record(client_of(user), game)
    assert response.status_code == 201, response.content
    assert response.json()["game"]["played_at"] is None


@pytest.mark.parametrize(
    "body", ["[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000]
)
def test_a_json_body_nested_too_deeply_is_400_with_a_finding(
    api_client: APIClient, client_of: Any, staff_user: Any, record: Any, body: str
) -> None:
    game_id = store_game(record(0), staff_user)
    dispute = dispute_open(game=Game.objects.get(pk=game_id), by=staff_user, reason="why")
    for client, url in [
        (api_client, "/api/auth/token/"),
        (client_of(staff_user), "/api/rulesets/"),
        (client_of(staff_user), f"/api/games/{game_id}/disputes/"),
        (client_of(staff_user), f"/api/disputes/{dispute.pk}/resolve/"),
    ]:
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400, url
        assert findings_of(response)[0]["code"] == "request.json"
    assert Dispute.objects.get() == dispute


def test_a_lone_surrogate_quoted_back_in_a_finding_is_written_escaped(
    api_client: APIClient, client_of: Any, user: Any, record: Any
) -> None:
    """JSON can spell "\\ud800", which has no UTF-8 form; the answer escapes it."""
    game = record(0)
    game["deals"][0]["hands"][0][0] = "\ud800"
    body = json.dumps(game)  # ASCII: the surrogate travels as the escape \ud800
    checked = api_client.post("/api/verify/", body, content_type="application/json")
    assert checked.status_code == 200
    assert checked.json()["verdict"] == "malformed"
    assert b"\\ud800" in checked.content
    stored = client_of(user).post("/api/games/", body, content_type="application/json")
    assert stored.status_code == 400
    assert "\ud800" in json.dumps([f["actual"] for f in findings_of(stored)], ensure_ascii=False)
    ruleset = {"name": "club", "preset": "classic", "options": {"jokers": ["\ud800"]}}
    refused = client_of(user).post(
        "/api/rulesets/", json.dumps(ruleset), content_type="application/json"
    )
    assert refused.status_code == 400
    assert findings_of(refused)[0]["code"] == "record.ruleset"
    assert not StoredRuleset.objects.exists()


def test_a_content_length_that_is_not_a_number_is_400_with_a_finding(
    api_client: APIClient, client_of: Any, user: Any
) -> None:
    for client, url in [(api_client, "/api/verify/"), (client_of(user), "/api/games/")]:
        response = client.post(url, "{}", content_type="application/json", CONTENT_LENGTH="abc")
        assert response.status_code == 400
        assert findings_of(response)[0]["code"] == "request.invalid"


@pytest.mark.parametrize(
    "url",
    ["/api/nothing-here/", "/api/games/null%2Cnull/", "/api/", "/api/players/a%0Ab/versus/1/"],
)
def test_an_unknown_api_url_is_404_with_a_finding_with_debug_on_too(
    api_client: APIClient, settings: Any, url: str
) -> None:
    settings.DEBUG = True
    response = api_client.get(url)
    assert response.status_code == 404
    assert findings_of(response)[0]["code"] == "request.not_found"


@pytest.mark.parametrize(
    "url", ["/api/games/null%2Cnull/disputes/", "/api/disputes/x/resolve/", "/api/nothing-here/"]
)
def test_a_post_to_an_unknown_api_url_without_a_csrf_token_is_404_with_a_finding(
    url: str,
) -> None:
    client = APIClient(enforce_csrf_checks=True)
    response = client.post(url, {"reason": "wrong"}, format="json")
    assert response.status_code == 404
    assert findings_of(response)[0]["code"] == "request.not_found"


def test_an_api_url_without_its_slash_is_still_redirected_to_it(api_client: APIClient) -> None:
    response = api_client.get("/api/rulesets")
    assert (response.status_code, response["Location"]) == (301, "/api/rulesets/")


@pytest.mark.parametrize(
    "url", ["/api/leaderboards/%00/", "/api/leaderboards/a%00b/?date=2026-01-01"]
)
def test_a_leaderboard_of_a_ruleset_with_a_nul_is_not_found(
    api_client: APIClient, url: str
) -> None:
    response = api_client.get(url)
    assert response.status_code == 404
    assert findings_of(response)[0]["code"] == "request.not_found"


def test_a_ratings_ruleset_with_a_nul_is_a_documented_400_with_a_finding(
    api_client: APIClient,
) -> None:
    response = api_client.get("/api/players/1/ratings/", {"ruleset": "a\x00b"})
    assert response.status_code == 400
    finding = findings_of(response)[0]
    assert (finding["code"], finding["path"]) == ("request.invalid", "/ruleset")
    paths = api_client.get("/api/schema/", {"format": "json"}).json()["paths"]
    assert "400" in paths["/api/players/{player_id}/ratings/"]["get"]["responses"]


def _documented(path: str, method: str) -> set[str]:
    paths = APIClient().get("/api/schema/", {"format": "json"}).json()["paths"]
    return set(paths[path][method]["responses"])


@pytest.mark.parametrize(
    ("method", "url", "path"),
    [
        ("post", "/api/games/", "/api/games/"),
        ("post", "/api/games/1/disputes/", "/api/games/{game_id}/disputes/"),
        ("post", "/api/rulesets/", "/api/rulesets/"),
        ("post", "/api/disputes/1/resolve/", "/api/disputes/{dispute_id}/resolve/"),
        ("get", "/api/uploads/", "/api/uploads/"),
        ("get", "/api/uploads/1/", "/api/uploads/{upload_id}/"),
    ],
)
def test_an_operation_needing_an_account_called_without_one_is_a_documented_401(
    api_client: APIClient, method: str, url: str, path: str
) -> None:
    response = getattr(api_client, method)(url, {}, format="json")
    assert response.status_code == 401
    assert findings_of(response)[0]["code"] == "request.unauthenticated"
    assert "401" in _documented(path, method)


@pytest.mark.parametrize(
    ("method", "url"), [("get", "/api/games/"), ("get", "/api/rulesets/"), ("post", "/api/verify/")]
)
def test_a_wrong_token_is_a_documented_401_on_open_operations_too(
    api_client: APIClient, method: str, url: str
) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = getattr(api_client, method)(url, {}, format="json")
    assert response.status_code == 401
    assert "401" in _documented(url, method)


def test_a_write_with_a_session_and_no_csrf_token_is_a_documented_403(user: Any) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post("/api/rulesets/", {"name": "club", "preset": "classic"}, format="json")
    assert response.status_code == 403
    assert findings_of(response)[0]["code"] == "request.forbidden"
    assert "403" in _documented("/api/rulesets/", "post")


@pytest.mark.parametrize("url", ["/api/games/", "/api/uploads/"])
def test_a_throttled_upload_is_a_documented_429_and_a_read_is_never_throttled(
    client_of: Any, user: Any, monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    from core.throttles import WriteThrottle

    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"upload": "0/min"})
    response = client_of(user).post(url, {}, format="json")
    assert response.status_code == 429
    assert findings_of(response)[0]["code"] == "request.throttled"
    assert "429" in _documented(url, "post")
    assert "429" not in _documented(url, "get")


@pytest.mark.parametrize("url", ["/api/games/", "/api/games/1/record/", "/api/players/"])
def test_a_format_the_api_does_not_offer_is_404_at_format(api_client: APIClient, url: str) -> None:
    """DRF answers ``?format=xml`` with a bare Http404, which came back as request.error, a
    code docs/format.md does not list, with an empty message."""
    response = api_client.get(url, {"format": "xml"})
    assert response.status_code == 404
    (finding,) = findings_of(response)
    assert (finding["code"], finding["path"], finding["actual"]) == (
        "request.not_found",
        "/format",
        "xml",
    )
    assert "xml" in finding["message"]
    assert api_client.get("/api/games/", {"format": "json"}).status_code == 200


@pytest.mark.parametrize(
    ("exc", "status", "code", "message"),
    [
        (Http404("no game 5"), 404, "request.not_found", "no game 5"),
        (Http404(), 404, "request.not_found", "Not found."),
        (PermissionDenied("staff only"), 403, "request.forbidden", "staff only"),
    ],
)
def test_django_s_own_refusals_get_the_codes_of_drf_s(
    exc: Exception, status: int, code: str, message: str
) -> None:
    response = api_exception_handler(exc, {})
    assert response is not None and response.status_code == status
    (finding,) = response.data["findings"]
    assert (finding["code"], finding["message"]) == (code, message)
