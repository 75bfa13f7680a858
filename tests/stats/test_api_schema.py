"""The statistics endpoints are in the OpenAPI schema; the bench baseline is not."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_every_statistics_endpoint_is_in_the_schema(api_client: APIClient) -> None:
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/players/",
        "/api/players/{player_id}/",
        "/api/players/{player_id}/stats/",
        "/api/players/{player_id}/ratings/",
        "/api/players/{player_id}/versus/{opponent_id}/",
        "/api/leaderboards/{ruleset}/",
    ):
        assert "get" in paths[path], path
        assert "304" in paths[path]["get"]["responses"], path
    stats = paths["/api/players/{player_id}/stats/"]["get"]
    assert {p["name"] for p in stats["parameters"]} >= {"player_id", "ruleset", "since", "until"}
    assert not any(path.startswith("/api/bench/") for path in paths)


def test_rates_and_percentiles_are_fractions_the_schema_describes(api_client: APIClient) -> None:
    schemas = api_client.get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]
    stats = schemas["PlayerStats"]["properties"]
    percentiles = schemas["Percentiles"]["properties"]
    for figure in (stats["win_rate"], percentiles["win_rate"], percentiles["rating"]):
        assert (figure["minimum"], figure["maximum"]) == (0, 1), figure
        assert "a fraction from 0 to 1" in figure["description"]
