"""Every refused request answers {"findings": [...]} in FORMAT.md's shape, never a traceback."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.service.conftest import findings_of

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
