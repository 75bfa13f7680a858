"""GET/POST /api/rulesets/: presets with every option, and rulesets clubs store."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import StoredRuleset
from replay import PRESETS
from tests.service.conftest import findings_of

pytestmark = pytest.mark.django_db


def test_it_lists_every_preset_resolved_and_the_stored_rulesets(
    api_client: APIClient, client_of: Any, user: Any
) -> None:
    client_of(user).post(
        "/api/rulesets/",
        {"name": "Thursday club", "preset": "classic", "options": {"dark_bids": True}},
        format="json",
    )
    body = api_client.get("/api/rulesets/").json()
    assert [p["name"] for p in body["presets"]] == list(PRESETS)
    classic = next(p for p in body["presets"] if p["name"] == "classic")
    assert classic["options"]["deck"] == "36" and "revoke_penalty" in classic["options"]
    (stored,) = body["stored"]
    assert (stored["name"], stored["preset"], stored["options"]) == (
        "Thursday club",
        "classic",
        {"dark_bids": True},
    )


def test_anonymous_users_cannot_store_a_ruleset(api_client: APIClient) -> None:
    response = api_client.post("/api/rulesets/", {"name": "x", "preset": "classic"}, format="json")
    assert response.status_code == 401
    assert StoredRuleset.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "code", "path"),
    [
        ({"name": "x", "preset": "bridge"}, "record.ruleset", "/preset"),
        (
            {"name": "x", "preset": "classic", "options": {"deck": "33"}},
            "record.ruleset",
            "/options/deck",
        ),
        (
            {"name": "x", "preset": "classic", "options": {"colour": 1}},
            "record.ruleset",
            "/options/colour",
        ),
        ({"name": "classic", "preset": "classic"}, "request.invalid", "/name"),
        ({"preset": "classic"}, "request.invalid", "/name"),
        ({"name": "x", "preset": "classic", "options": [1]}, "request.invalid", "/options"),
    ],
)
def test_a_bad_ruleset_is_refused_with_findings(
    client_of: Any, user: Any, body: dict[str, Any], code: str, path: str
) -> None:
    response = client_of(user).post("/api/rulesets/", body, format="json")
    assert response.status_code == 400
    assert (code, path) in {(f["code"], f["path"]) for f in findings_of(response)}
    assert StoredRuleset.objects.count() == 0


def test_a_name_is_stored_once(client_of: Any, user: Any) -> None:
    client = client_of(user)
    body = {"name": "club", "preset": "classic"}
    assert client.post("/api/rulesets/", body, format="json").status_code == 201
    again = client.post("/api/rulesets/", body, format="json")
    assert again.status_code == 400
    assert findings_of(again)[0]["path"] == "/name"
