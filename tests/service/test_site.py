"""The site's fixed pages: the OpenAPI schema, its docs and the admin login."""

from __future__ import annotations

from pathlib import Path

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
