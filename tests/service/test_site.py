"""The site's fixed pages: the OpenAPI schema, its docs and the admin login."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient


def test_schema_is_an_openapi_document(api_client: APIClient) -> None:
    response = api_client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    document = response.json()
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"] == "Raspis API"


def test_docs_page_serves_swagger_ui_from_the_site_itself(api_client: APIClient) -> None:
    response = api_client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui" in page
    assert "/static/drf_spectacular_sidecar/" in page


@pytest.mark.django_db
def test_admin_login_page_renders(api_client: APIClient) -> None:
    response = api_client.get("/admin/login/")
    assert response.status_code == 200
    assert b'name="username"' in response.content


def test_the_schema_is_generated_without_warnings(tmp_path: Path) -> None:
    """drf-spectacular guesses, and says so, where a view does not describe itself."""
    schema = tmp_path / "schema.yaml"
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(schema))
    assert schema.read_text().startswith("openapi: ")


@pytest.mark.parametrize("url", ["/api/games/", "/api/disputes/", "/api/uploads/", "/api/players/"])
def test_the_schema_describes_each_list_as_the_page_it_answers(
    api_client: APIClient, client_of: Any, user: Any, url: str
) -> None:
    schema = api_client.get("/api/schema/", {"format": "json"}).json()
    ok = schema["paths"][url]["get"]["responses"]["200"]["content"]["application/json"]
    page = schema["components"]["schemas"][ok["schema"]["$ref"].rsplit("/", 1)[1]]
    assert set(page["properties"]) == set(client_of(user).get(url).json())
    assert page["properties"]["results"]["type"] == "array"
