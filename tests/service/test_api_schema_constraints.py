"""The OpenAPI schema states what the server checks in requests, so the two cannot drift apart.

Each case is a value the server refuses: the schema must call it invalid (a JSON Schema
validator reads the generated document) and call a sound value valid, and the server must
answer the refused value with a 400 whose findings point at the parameter or field. A
constraint missing from either side fails here; so does a schema that refuses good values.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from rest_framework.test import APIClient

from tests.service.conftest import Document, text_of
from uploads.services import upload_create
from uploads.tasks import WORKERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client_of: Any, staff_user: Any) -> APIClient:
    """Staff may call every endpoint, so one client reaches them all."""
    client: APIClient = client_of(staff_user)
    return client


@pytest.fixture
def ids(staff: APIClient, staff_user: Any, record: Any) -> dict[str, Any]:
    """The path parameters of the URLs, named as in the schema: a game (played 2022-05-20), a
    dispute of it, an upload; a player, who is also the opponent (so versus is refused)."""
    game = staff.post("/api/games/", text_of(record(0)), content_type="application/json")
    game_id = game.json()["game"]["id"]
    dispute = staff.post(f"/api/games/{game_id}/disputes/", {"reason": "wrong"}, format="json")
    upload = upload_create(
        uploaded_by=staff_user, data=b"{}", filename="r.json", visibility="public", workers=WORKERS
    )
    return {
        "game_id": game_id,
        "dispute_id": dispute.json()["id"],
        "upload_id": upload.pk,
        "player_id": 1,
        "opponent_id": 1,
        "ruleset": "classic",
    }


def parameter(document: Document, path: str, name: str) -> Document:
    """A query or path parameter of ``GET path``."""
    operation = document["paths"][path]["get"]
    found: Document = next(p for p in operation["parameters"] if p["name"] == name)
    return found


def request_body(document: Document, path: str, media_type: str) -> Document:
    """The schema of the body of ``POST path``, a ``$ref`` into the components."""
    schema: Document = document["paths"][path]["post"]["requestBody"]["content"][media_type]
    return schema["schema"]


def valid(document: Document, schema: Document, value: Any) -> bool:
    """Whether ``value`` is valid under ``schema``, whose ``$ref``s point into ``document``."""
    rooted = {**schema, "components": document["components"]}
    return Draft202012Validator(rooted, format_checker=FormatChecker()).is_valid(value)


def refused_at(response: Any, path: str) -> bool:
    """A 400 with findings, one of them located at ``path``."""
    findings = response.json()["findings"]
    return response.status_code == 400 and path in {f["path"] for f in findings}


def query_value(value: Any) -> str:
    return ",".join(value) if isinstance(value, list) else str(value)


QUERY_CASES = [
    # path, parameter, refused, accepted, the other parameters the request needs
    ("/api/games/", "page", 0, 1, {}),
    ("/api/disputes/", "page", 0, 1, {}),
    ("/api/uploads/", "page", 0, 1, {}),
    ("/api/players/", "page", 0, 1, {}),
    ("/api/uploads/{upload_id}/", "page", 0, 1, {}),
    ("/api/uploads/{upload_id}/", "outcome", ["rejected", "lost"], ["rejected", "failed"], {}),
    ("/api/games/", "player", "An\x00na", "Anna", {}),
    ("/api/games/", "ruleset", "\x00", "classic", {}),
    ("/api/games/", "verdict", "fine", "verified", {}),
    ("/api/games/", "status", "open", "flagged", {}),
    ("/api/games/export.jsonl", "player", "\x00", "Anna", {}),
    ("/api/games/export.jsonl", "verdict", "fine", "illegal", {}),
    ("/api/games/{game_id}/replay/", "deal", 0, 1, {}),
    ("/api/games/{game_id}/replay/", "trick", 0, 1, {"deal": 1}),
    ("/api/games/{game_id}/replay/", "play", -1, 0, {"deal": 1, "trick": 1}),
    ("/api/players/", "search", "\x00", "an", {}),
    ("/api/players/{player_id}/stats/", "ruleset", "\x00", "classic", {}),
    ("/api/players/{player_id}/stats/", "since", "2026-13", "2026-01", {}),
    ("/api/players/{player_id}/ratings/", "ruleset", "\x00", "classic", {}),
    ("/api/leaderboards/{ruleset}/", "limit", 0, 100, {}),
    ("/api/leaderboards/{ruleset}/", "date", "tomorrow", "2026-01-01", {}),
]


@pytest.mark.parametrize(("path", "name", "refused", "accepted", "others"), QUERY_CASES)
def test_the_schema_states_what_a_query_parameter_may_be(
    document: Document,
    staff: APIClient,
    ids: dict[str, Any],
    path: str,
    name: str,
    refused: Any,
    accepted: Any,
    others: dict[str, Any],
) -> None:
    schema = parameter(document, path, name)["schema"]
    assert not valid(document, schema, refused)
    assert valid(document, schema, accepted)
    response = staff.get(path.format(**ids), {**others, name: query_value(refused)})
    assert refused_at(response, f"/{name}"), response.content


def test_the_date_time_filters_state_their_format_and_refuse_another(
    document: Document, staff: APIClient
) -> None:
    """jsonschema checks ``date-time`` only with an extra package, so the formats are read."""
    for url in ("/api/games/", "/api/games/export.jsonl"):
        for name in ("played_from", "played_to"):
            schemas = parameter(document, url, name)["schema"]["anyOf"]
            assert {s["format"] for s in schemas} == {"date-time", "date"}
            assert refused_at(staff.get(url, {name: "yesterday"}), f"/{name}")
            assert staff.get(url, {name: "2026-01-10"}).status_code == 200


BODY_CASES = [
    # path, field, refused body, accepted body
    ("/api/games/{game_id}/disputes/", "reason", {"reason": ""}, {"reason": "wrong"}),
    ("/api/games/{game_id}/disputes/", "reason", {"reason": " \t\n"}, {"reason": " wrong "}),
    ("/api/games/{game_id}/disputes/", "reason", {"reason": "wr\x00ng"}, {"reason": "wrong"}),
    (
        "/api/games/{game_id}/disputes/",
        "deal",
        {"reason": "x", "deal": 0},
        {"reason": "x", "deal": 1},
    ),
    (
        "/api/games/{game_id}/disputes/",
        "trick",
        {"reason": "x", "deal": 1, "trick": 0},
        {"reason": "x", "deal": 1, "trick": 1},
    ),
    (
        "/api/disputes/{dispute_id}/resolve/",
        "decision",
        {"decision": "maybe"},
        {"decision": "upheld"},
    ),
    (
        "/api/disputes/{dispute_id}/resolve/",
        "note",
        {"decision": "upheld", "note": "\x00"},
        {"decision": "upheld", "note": ""},
    ),
    (
        "/api/disputes/{dispute_id}/resolve/",
        "corrected_scores/0",
        {"decision": "corrected", "corrected_scores": ["-", "1", "2", "3"]},
        {"decision": "corrected", "corrected_scores": ["-.5", "1.", "2", "3"]},
    ),
    (
        "/api/rulesets/",
        "name",
        {"name": " ", "preset": "classic"},
        {"name": "x", "preset": "classic"},
    ),
    (
        "/api/rulesets/",
        "name",
        {"name": "\x00", "preset": "classic"},
        {"name": "x", "preset": "classic"},
    ),
    ("/api/rulesets/", "preset", {"name": "x", "preset": ""}, {"name": "x", "preset": "classic"}),
    (
        "/api/rulesets/",
        "preset",
        {"name": "x", "preset": "poker"},
        {"name": "x", "preset": "oh_hell"},
    ),
    (
        "/api/auth/token/",
        "username",
        {"username": "", "password": "x"},
        {"username": "a", "password": "x"},
    ),
    (
        "/api/auth/token/",
        "password",
        {"username": "a", "password": ""},
        {"username": "a", "password": " "},
    ),
]


@pytest.mark.parametrize(("path", "field", "refused", "accepted"), BODY_CASES)
def test_the_schema_states_what_a_request_body_may_hold(
    document: Document,
    staff: APIClient,
    ids: dict[str, Any],
    path: str,
    field: str,
    refused: dict[str, Any],
    accepted: dict[str, Any],
) -> None:
    schema = request_body(document, path, "application/json")
    assert not valid(document, schema, refused)
    assert valid(document, schema, accepted)
    response = staff.post(path.format(**ids), refused, format="json")
    assert refused_at(response, f"/{field}"), response.content


def test_a_stored_record_states_its_visibility_choices(
    document: Document, staff: APIClient, record: Any
) -> None:
    operation = document["paths"]["/api/games/"]["post"]
    visibility = next(p for p in operation["parameters"] if p["name"] == "visibility")
    assert set(visibility["schema"]["enum"]) == {"public", "private"}
    response = staff.post(
        "/api/games/?visibility=secret", text_of(record(0)), content_type="application/json"
    )
    assert refused_at(response, "/visibility"), response.content


def test_the_upload_schema_asks_for_a_file_not_a_url(
    document: Document, client_of: Any, user: Any
) -> None:
    ref = request_body(document, "/api/uploads/", "multipart/form-data")["$ref"]
    upload = document["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert upload["properties"]["file"]["format"] == "binary"
    response = client_of(user).post("/api/uploads/", {"file": "https://example.com/r.json"})
    assert refused_at(response, "/file"), response.content


RELATIONS = [
    # the parameter whose description states the rule, words of it, a request breaking it, and
    # where the server locates its finding
    (
        "/api/players/{player_id}/stats/",
        "since",
        "not after until",
        "?since=2026-02&until=2026-01",
        "/until",
    ),
    (
        "/api/players/{player_id}/stats/",
        "until",
        "not before since",
        "?since=2026-02&until=2026-01",
        "/until",
    ),
    ("/api/games/{game_id}/replay/", "play", "needs trick", "?deal=1&play=0", "/play"),
    (
        "/api/players/{player_id}/versus/{opponent_id}/",
        "opponent_id",
        "not their own opponent",
        "",
        "/opponent_id",
    ),
]


@pytest.mark.parametrize(("path", "name", "words", "query", "located"), RELATIONS)
def test_a_rule_relating_two_parameters_is_stated_in_words(
    document: Document,
    staff: APIClient,
    ids: dict[str, Any],
    path: str,
    name: str,
    words: str,
    query: str,
    located: str,
) -> None:
    """JSON Schema cannot relate two parameters, so the description states the rule."""
    assert words in parameter(document, path, name)["description"]
    assert refused_at(staff.get(path.format(**ids) + query), located)


def test_a_disputed_trick_needs_its_deal_in_the_schema_and_on_the_server(
    document: Document, staff: APIClient, ids: dict[str, Any]
) -> None:
    schema = document["components"]["schemas"]["DisputeCreateRequest"]
    assert "needs deal" in schema["properties"]["trick"]["description"]
    response = staff.post(f"/api/games/{ids['game_id']}/disputes/", {"reason": "x", "trick": 1})
    assert refused_at(response, "/trick"), response.content


def test_a_played_range_that_ends_before_it_starts_is_refused_as_stated(
    document: Document, staff: APIClient, ids: dict[str, Any]
) -> None:
    around = {"played_from": "2022-05-01T00:00:00Z", "played_to": "2022-06-01T00:00:00Z"}
    backwards = {"played_from": around["played_to"], "played_to": around["played_from"]}
    for url in ("/api/games/", "/api/games/export.jsonl"):
        assert "not after played_to" in parameter(document, url, "played_from")["description"]
        assert "not before played_from" in parameter(document, url, "played_to")["description"]
        assert staff.get(url, around).status_code == 200
        assert refused_at(staff.get(url, backwards), "/played_to")
    assert staff.get("/api/games/", around).json()["count"] == 1
    one_instant = {"played_from": around["played_from"], "played_to": around["played_from"]}
    assert staff.get("/api/games/", one_instant).status_code == 200


def content(response: Any) -> bytes:
    streaming = getattr(response, "streaming_content", None)
    return b"".join(streaming) if streaming is not None else bytes(response.content)


def test_every_optional_query_parameter_may_be_empty_as_if_not_given(
    document: Document, staff: APIClient, ids: dict[str, Any], record: Any
) -> None:
    """DRF and Django's forms read ``?page=`` as no page given; the schema says so with
    ``allowEmptyValue``, else the empty value is invalid there and its 200 looks like a bug."""
    needed = {"/api/games/{game_id}/replay/": {"deal": 1}}
    checked = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for p in operation.get("parameters", []):
                # A place a game's family needs (the deal of a trick-taking game) is no
                # optional parameter for it, though the schema cannot say which game needs it.
                if p["in"] != "query" or p.get("required") or p["name"] in needed.get(path, {}):
                    continue
                assert p.get("allowEmptyValue") is True, (method, path, p["name"])
                if method != "get":
                    continue
                url, others = path.format(**ids), needed.get(path, {})
                without, empty = staff.get(url, others), staff.get(url, {**others, p["name"]: ""})
                assert without.status_code in (200, 404), (url, without.content)
                answers = (empty.status_code, content(empty))
                assert answers == (without.status_code, content(without)), (url, p["name"])
                checked += 1
    assert checked >= 25
    stored = staff.post(
        "/api/games/?visibility=", text_of(record(1)), content_type="application/json"
    )
    assert stored.status_code == 201, stored.content
    assert stored.json()["game"]["visibility"] == "public"
