"""POST /api/auth/token/: an account's username and password give its API token."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.conftest import PASSWORD
from tests.service.conftest import findings_of

pytestmark = pytest.mark.django_db


def test_a_username_and_password_give_a_token_that_authenticates(
    api_client: APIClient, user: Any
) -> None:
    response = api_client.post(
        "/api/auth/token/", {"username": "anna", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get("/api/uploads/").status_code == 200


def test_a_wrong_password_is_refused_with_findings(api_client: APIClient, user: Any) -> None:
    response = api_client.post(
        "/api/auth/token/", {"username": "anna", "password": "wrong"}, format="json"
    )
    assert response.status_code == 400
    assert findings_of(response)[0]["code"] == "request.invalid"


def test_the_token_endpoint_is_in_the_schema_with_its_refusal(api_client: APIClient) -> None:
    document = api_client.get("/api/schema/", {"format": "json"}).json()
    responses = document["paths"]["/api/auth/token/"]["post"]["responses"]
    assert {"200", "400"} <= set(responses)
    token = responses["200"]["content"]["application/json"]["schema"]["$ref"]
    assert document["components"]["schemas"][token.rpartition("/")[2]]["required"] == ["token"]
