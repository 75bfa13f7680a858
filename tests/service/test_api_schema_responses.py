"""The OpenAPI schema states what the server answers: each answer below, a success or a
refusal, is validated against the schema ``/api/schema/`` serves for its path, method and
status.

The schema is OpenAPI 3.0: ``nullable: true`` becomes ``anyOf [it, null]`` for a JSON
Schema validator. The check is stricter than the schema in one way: every object the schema
lists properties of is taken as closed, so an answer with a key the schema does not list
fails here, though a client must allow new keys (only a finding's keys are fixed).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from jsonschema import Draft202012Validator, FormatChecker
from rest_framework.test import APIClient

from replay.poker.corruptions import corrupt as corrupt_poker
from replay.poker.simulate import simulate_record as simulate_poker
from replay.rummy.simulate import simulate_game as simulate_rummy
from tests.service.conftest import Document, post_record, text_of

pytestmark = pytest.mark.django_db

FINDING_KEYS = {"code", "severity", "deal", "trick", "play", "seat", "player", "message"}
FINDING_KEYS |= {"expected", "actual", "path"}


def as_json_schema(node: Any, *, closed: bool = True) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: ``nullable`` as ``anyOf`` with null, and (with
    ``closed``) no keys besides the listed properties."""
    if isinstance(node, list):
        return [as_json_schema(item, closed=closed) for item in node]
    if not isinstance(node, dict):
        return node
    out = {
        key: (
            {name: as_json_schema(s, closed=closed) for name, s in value.items()}
            if key == "properties"
            else as_json_schema(value, closed=closed)
        )
        for key, value in node.items()
        if key != "nullable"
    }
    if closed and "properties" in out:
        out.setdefault("additionalProperties", False)
    if node.get("nullable") is True:
        return {"anyOf": [out, {"type": "null"}]}
    return out


def answer_schema(document: Document, path: str, method: str, status: int) -> Document:
    """The schema of the JSON answer of ``method path`` with ``status``."""
    responses = document["paths"][path][method]["responses"]
    assert str(status) in responses, f"{method.upper()} {path} does not state {status}"
    schema: Document = responses[str(status)]["content"]["application/json"]["schema"]
    return schema


def component(document: Document, schema: Document) -> Document:
    """The component a ``$ref`` names, or the schema itself."""
    if "$ref" in schema:
        found: Document = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        return found
    return schema


def alternatives(document: Document, schema: Document) -> list[Document]:
    """The object schemas an answer may be: the component, or each of its ``oneOf``."""
    typed = component(document, schema)
    return [component(document, s) for s in typed["oneOf"]] if "oneOf" in typed else [typed]


def check(document: Document, path: str, method: str, response: Any) -> Any:
    """``response`` conforms to the schema of its status; its JSON body."""
    schema = answer_schema(document, path, method, response.status_code)
    for typed in alternatives(document, schema):
        assert typed.get("properties"), f"{method.upper()} {path} {response.status_code}: {typed}"
    rooted = as_json_schema({**schema, "components": document["components"]})
    validator = Draft202012Validator(rooted, format_checker=FormatChecker())
    body = response.json()
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(body)
    ]
    assert not errors, f"{method.upper()} {path} {response.status_code}: {errors}"
    return body


def test_the_schemas_checked_here_state_their_keys(document: Document) -> None:
    """The answers are not checked against free objects: a finding has its keys, all of them
    in an error and all but ``path`` in a report, and no others."""
    schemas = document["components"]["schemas"]
    finding, located = schemas["Finding"], schemas["ReportFinding"]
    assert set(finding["properties"]) == set(finding["required"]) == FINDING_KEYS
    assert set(located["properties"]) == FINDING_KEYS
    assert set(located["required"]) == FINDING_KEYS - {"path"}
    assert finding["additionalProperties"] is False and located["additionalProperties"] is False
    assert finding["properties"]["path"]["nullable"] is True
    assert "nullable" not in located["properties"]["path"]
    assert schemas["Findings"]["properties"]["findings"]["items"]["$ref"].endswith("/Finding")
    report = schemas["Report"]
    assert set(report["required"]) == {
        "verdict",
        "audit",
        "ruleset",
        "findings",
        "deals",
        "totals",
        "winners",
    }
    assert report["properties"]["findings"]["items"]["$ref"].endswith("/ReportFinding")
    assert report["properties"]["deals"]["items"]["$ref"].endswith("/ReportDeal")
    assert schemas["ReplayState"]["properties"]["findings"]["items"]["$ref"].endswith(
        "/ReportFinding"
    )
    for operation in (
        ("/api/verify/", "post", 200),
        ("/api/games/", "post", 202),
        ("/api/games/{game_id}/replay/", "get", 200),
        ("/api/rulesets/", "get", 200),
    ):
        for typed in alternatives(document, answer_schema(document, *operation)):
            assert typed.get("properties")
    refusal = answer_schema(document, "/api/games/", "post", 400)
    assert refusal["$ref"].endswith("/Findings")


def test_the_strict_check_refuses_what_the_schema_does_not_say(document: Document) -> None:
    """The helpers themselves: null only where nullable, no key the schema does not list."""
    schema = {"$ref": "#/components/schemas/Findings", "components": document["components"]}
    validator = Draft202012Validator(as_json_schema(schema))
    finding = dict.fromkeys(FINDING_KEYS)
    finding.update(code="request.invalid", severity="error", message="no")
    assert validator.is_valid({"findings": [finding]})
    assert not validator.is_valid({"findings": [{**finding, "message": None}]})
    assert not validator.is_valid({"findings": [{**finding, "extra": 1}]})
    assert not validator.is_valid({"findings": [{k: finding[k] for k in FINDING_KEYS - {"path"}}]})


# --- POST /api/verify/ -------------------------------------------------------------------------


def verify(api_client: APIClient, body: str | bytes) -> Any:
    return api_client.post("/api/verify/", body, content_type="application/json")


def test_a_legal_records_report_conforms(
    api_client: APIClient, document: Document, record: Any
) -> None:
    report = check(document, "/api/verify/", "post", verify(api_client, text_of(record(0))))
    assert report["verdict"] == "verified" and report["deals"] and report["findings"] == []


def test_an_illegal_records_report_conforms(
    api_client: APIClient, document: Document, illegal_record: Any
) -> None:
    report = check(document, "/api/verify/", "post", verify(api_client, text_of(illegal_record)))
    assert report["verdict"] == "illegal"
    assert any(f["code"] == "play.revoke" and f["path"] for f in report["findings"])


def test_an_unfinished_sheet_with_a_miscount_conforms(
    client_of: Any, user: Any, document: Document, record: Any
) -> None:
    """No tricks: bids and taken as claimed, a running total off, the last deal missing: a
    finding without a place has no ``path`` in the report, and a null one in the game."""
    game = record(1)
    for deal in game["deals"]:
        deal.pop("tricks")
        deal.pop("hands", None)
    game["deals"][0]["running"][0] += 1
    del game["deals"][-1], game["totals"]
    client = client_of(user)
    report = check(document, "/api/verify/", "post", verify(client, text_of(game)))
    assert report["audit"] == "sheet" and report["verdict"] == "mismatch"
    assert {"result.running", "game.incomplete"} <= {f["code"] for f in report["findings"]}
    assert any("path" not in f for f in report["findings"])
    stored = check(document, "/api/games/", "post", post_record(client, game))
    detail = client.get(stored["game"]["url"])
    findings = check(document, "/api/games/{game_id}/", "get", detail)["findings"]
    assert any(f["path"] is None for f in findings)


@pytest.mark.parametrize(
    ("body", "ruleset"),
    [
        pytest.param(b"not json", False, id="not-json"),
        pytest.param(b"[1, 2]", False, id="not-an-object"),
        pytest.param(b'{"format": "raspis/1", "ruleset": "nope"}', False, id="unknown-ruleset"),
        pytest.param(
            b'{"format": "raspis/1", "ruleset": "classic", "players": ["a", "A"], "deals": 3}',
            True,
            id="bad-fields",
        ),
    ],
)
def test_a_malformed_records_report_conforms(
    api_client: APIClient, document: Document, body: bytes, ruleset: bool
) -> None:
    report = check(document, "/api/verify/", "post", verify(api_client, body))
    assert report["verdict"] == "malformed" and report["findings"]
    assert report["totals"] is None and report["deals"] == []
    assert (report["ruleset"] is not None) == ruleset


def _rummy(corruption: str | None) -> Any:
    return simulate_rummy("joker_rummy", 3, 4, corrupt_mode=corruption)


def _poker(preset: str, corruption: str | None) -> Any:
    record = simulate_poker(preset, 3, 6, 5)
    return record if corruption is None else corrupt_poker(record, corruption, random.Random(3))


#: Records of the other families, each with the report's component it must match alone and
#: its verdict: the engines' simulations, good, corrupted, and malformed.
FAMILY_RECORDS = [
    pytest.param(lambda: _rummy(None), "RummyReport", "verified", id="rummy"),
    pytest.param(lambda: _rummy("meld.invalid"), "RummyReport", "illegal", id="rummy-meld"),
    pytest.param(lambda: _rummy("result.points"), "RummyReport", "mismatch", id="rummy-points"),
    pytest.param(
        lambda: {"format": "raspis-rummy/1", "ruleset": "nope"},
        "RummyReport",
        "malformed",
        id="rummy-malformed",
    ),
    pytest.param(lambda: _poker("club_stud", None), "PokerReport", "verified", id="club"),
    pytest.param(lambda: _poker("joker_poker", None), "PokerReport", "verified", id="casino"),
    pytest.param(
        lambda: _poker("club_stud", "bet.action"), "PokerReport", "illegal", id="club-bet"
    ),
    pytest.param(
        lambda: _poker("joker_poker", "hand.ante"), "PokerReport", "illegal", id="casino-ante"
    ),
    pytest.param(
        lambda: {"format": "raspis-poker/1", "ruleset": "club_stud", "seats": 3},
        "PokerReport",
        "malformed",
        id="poker-malformed",
    ),
]


@pytest.mark.parametrize(("make", "shape", "verdict"), FAMILY_RECORDS)
def test_a_rummy_or_poker_report_conforms_to_its_own_shape_only(
    api_client: APIClient, document: Document, make: Any, shape: str, verdict: str
) -> None:
    """The answer is one of the three reports: a rummy's or a poker's matches its own (with
    its findings' places), and neither of the others'."""
    report = check(document, "/api/verify/", "post", verify(api_client, text_of(make())))
    assert report["verdict"] == verdict
    assert (report["findings"] == []) == (verdict == "verified")
    schema = answer_schema(document, "/api/verify/", "post", 200)
    matching = [
        ref.rsplit("/", 1)[1]
        for ref in (s["$ref"] for s in component(document, schema)["oneOf"])
        if Draft202012Validator(
            as_json_schema({"$ref": ref, "components": document["components"]})
        ).is_valid(report)
    ]
    assert matching == [shape]


def test_the_verify_answer_is_one_of_the_three_reports(document: Document) -> None:
    schema = answer_schema(document, "/api/verify/", "post", 200)
    names = [s["$ref"].rsplit("/", 1)[1] for s in component(document, schema)["oneOf"]]
    assert names == ["Report", "RummyReport", "PokerReport"]
    schemas = document["components"]["schemas"]
    places = {"RummyReportFinding": {"deal", "turn", "action"}}
    places["PokerReportFinding"] = {"hand", "stage", "action"}
    for name, where in places.items():
        keys = FINDING_KEYS - {"deal", "trick", "play"} | where
        assert set(schemas[name]["properties"]) == keys
        assert set(schemas[name]["required"]) == keys - {"path"}
        assert schemas[name]["additionalProperties"] is False
    assert set(schemas["RummyDeal"]["required"]) == {
        "number",
        "dealer",
        "out",
        "out_jokers",
        "left",
        "points",
        "running",
    }
    assert set(schemas["PokerHand"]["required"]) >= {"pots", "winners", "net", "stacks"}
    assert set(schemas["PokerPot"]["required"]) == {"amount", "eligible", "winners"}


@override_settings(RASPIS_MAX_UPLOAD_BYTES=10)
def test_a_body_past_the_limit_conforms(api_client: APIClient, document: Document) -> None:
    body = check(document, "/api/verify/", "post", verify(api_client, b'{"format": 1234567}'))
    assert body["findings"][0]["code"] == "request.too_large"


# --- POST /api/games/ --------------------------------------------------------------------------


def test_a_stored_record_and_its_duplicate_conform(
    client_of: Any, user: Any, document: Document, illegal_record: Any
) -> None:
    client = client_of(user)
    stored = post_record(client, illegal_record)
    assert stored.status_code == 201
    assert check(document, "/api/games/", "post", stored)["report"]["verdict"] == "illegal"
    again = post_record(client, illegal_record)
    assert again.status_code == 200
    assert check(document, "/api/games/", "post", again)["duplicate"] is True


def test_a_record_that_cannot_be_stored_conforms(
    client_of: Any, user: Any, document: Document, record: Any
) -> None:
    game = record(0)
    game["deals"][0]["hands"][0][0] = "ZZ"
    del game["players"]
    refused = post_record(client_of(user), game)
    assert refused.status_code == 400
    findings = check(document, "/api/games/", "post", refused)["findings"]
    assert {f["code"] for f in findings} >= {"record.schema"}


def test_a_refused_query_parameter_conforms(
    client_of: Any, user: Any, document: Document, record: Any
) -> None:
    refused = post_record(client_of(user), record(0), visibility="everyone")
    assert refused.status_code == 400
    assert check(document, "/api/games/", "post", refused)["findings"][0]["path"] == "/visibility"


def test_a_record_stored_in_a_game_the_caller_cannot_see_is_stored_again_and_conforms(
    client_of: Any, user: Any, other_user: Any, document: Document, record: Any
) -> None:
    assert post_record(client_of(other_user), record(0), visibility="private").status_code == 201
    stored = post_record(client_of(user), record(0))
    assert stored.status_code == 201
    check(document, "/api/games/", "post", stored)


@override_settings(RASPIS_SYNC_RECORD_MAX_BYTES=10)
def test_a_large_record_becomes_an_upload_and_conforms(
    client_of: Any, user: Any, document: Document, record: Any
) -> None:
    accepted = post_record(client_of(user), record(0))
    assert accepted.status_code == 202
    assert check(document, "/api/games/", "post", accepted)["url"].startswith("/api/uploads/")


def test_a_wrong_token_conforms(api_client: APIClient, document: Document, record: Any) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token wrong")
    refused = post_record(api_client, record(0))
    assert refused.status_code == 401
    assert check(document, "/api/games/", "post", refused)["findings"][0]["code"] == (
        "request.unauthenticated"
    )


# --- GET /api/games/{id}/, /record/, /replay/ ---------------------------------------------------


@pytest.fixture
def illegal_game(client_of: Any, user: Any, illegal_record: Any) -> int:
    game_id: int = post_record(client_of(user), illegal_record).json()["game"]["id"]
    return game_id


def test_a_game_with_findings_conforms(
    api_client: APIClient, document: Document, illegal_game: int
) -> None:
    detail = check(
        document, "/api/games/{game_id}/", "get", api_client.get(f"/api/games/{illegal_game}/")
    )
    assert detail["report"]["verdict"] == "illegal" and detail["findings"]
    assert detail["versions"]


@pytest.mark.parametrize(
    ("make", "places"),
    [
        pytest.param(lambda: _rummy("meld.invalid"), ("deal", "turn", "action"), id="rummy"),
        pytest.param(
            lambda: _poker("club_stud", "bet.action"), ("hand", "stage", "action"), id="club"
        ),
        pytest.param(lambda: _poker("joker_poker", None), None, id="casino"),
    ],
)
def test_a_stored_rummy_or_poker_game_conforms(
    client_of: Any, user: Any, document: Document, make: Any, places: Any
) -> None:
    """A stored game answers its family's report, and its findings in its family's places,
    every key present."""
    client = client_of(user)
    stored = post_record(client, make())
    game_id = stored.json()["game"]["id"]
    check(document, "/api/games/", "post", stored)
    detail = check(document, "/api/games/{game_id}/", "get", client.get(f"/api/games/{game_id}/"))
    assert bool(detail["findings"]) == (places is not None)
    for finding in detail["findings"]:
        assert set(finding) == {
            *places,
            "code",
            "severity",
            "seat",
            "player",
            "message",
            "expected",
            "actual",
            "path",
        }


def test_a_game_no_one_may_see_conforms(api_client: APIClient, document: Document) -> None:
    missing = api_client.get("/api/games/999999/")
    assert missing.status_code == 404
    check(document, "/api/games/{game_id}/", "get", missing)


def test_a_games_record_conforms(
    api_client: APIClient, document: Document, illegal_game: int
) -> None:
    answer = api_client.get(f"/api/games/{illegal_game}/record/")
    schema = answer_schema(document, "/api/games/{game_id}/record/", "get", 200)
    validator = Draft202012Validator(as_json_schema(schema))
    assert validator.is_valid(json.loads(answer.content))


def revoke_deal(record: Any) -> int:
    """The deal of the illegal record's revoke (1-based)."""
    report = APIClient().post("/api/verify/", text_of(record), content_type="application/json")
    deal: int = next(f["deal"] for f in report.json()["findings"] if f["code"] == "play.revoke")
    return deal


@pytest.mark.parametrize(
    "moment",
    [{}, {"trick": "1"}, {"trick": "1", "play": "0"}, {"trick": "2", "play": "2"}],
    ids=["deal-end", "trick-end", "before-a-trick", "mid-trick"],
)
def test_a_replay_state_conforms(
    api_client: APIClient,
    document: Document,
    illegal_game: int,
    illegal_record: Any,
    moment: dict[str, str],
) -> None:
    params = {"deal": str(revoke_deal(illegal_record)), **moment}
    answer = api_client.get(f"/api/games/{illegal_game}/replay/", params)
    assert answer.status_code == 200, answer.json()
    state = check(document, "/api/games/{game_id}/replay/", "get", answer)
    assert state["verdict"] == "illegal"
    if not moment:
        assert state["scores"] is not None and state["findings"]


def test_a_replay_state_of_a_deal_without_bidding_conforms(
    api_client: APIClient, document: Document, illegal_game: int, illegal_record: Any
) -> None:
    report = api_client.post(
        "/api/verify/", text_of(illegal_record), content_type="application/json"
    ).json()
    deal = next(d["number"] for d in report["deals"] if d["bids"] is None)
    answer = api_client.get(f"/api/games/{illegal_game}/replay/", {"deal": str(deal)})
    assert check(document, "/api/games/{game_id}/replay/", "get", answer)["bids"] is None


def test_a_sheet_deals_replay_state_conforms(
    client_of: Any, user: Any, document: Document, record: Any
) -> None:
    game = record(2)
    del game["deals"][0]["tricks"], game["deals"][0]["hands"]
    game_id = post_record(client_of(user), game).json()["game"]["id"]
    answer = client_of(user).get(f"/api/games/{game_id}/replay/", {"deal": "1"})
    state = check(document, "/api/games/{game_id}/replay/", "get", answer)
    assert state["trick"] is None and state["hands"] is None and state["leader"] is None


@pytest.mark.parametrize(
    ("params", "status"),
    [({"deal": "x"}, 400), ({"deal": "1", "play": "1"}, 400), ({"deal": "999"}, 400)],
    ids=["not-a-number", "play-without-trick", "past-the-last-deal"],
)
def test_a_refused_replay_conforms(
    api_client: APIClient, document: Document, illegal_game: int, params: Any, status: int
) -> None:
    answer = api_client.get(f"/api/games/{illegal_game}/replay/", params)
    assert answer.status_code == status
    assert check(document, "/api/games/{game_id}/replay/", "get", answer)["findings"][0]["path"]


def test_a_replay_of_a_game_no_one_may_see_conforms(
    api_client: APIClient, document: Document
) -> None:
    answer = api_client.get("/api/games/999999/replay/", {"deal": "1"})
    assert answer.status_code == 404
    check(document, "/api/games/{game_id}/replay/", "get", answer)


# --- /api/rulesets/ ----------------------------------------------------------------------------


def test_the_rulesets_conform(client_of: Any, user: Any, document: Document) -> None:
    client = client_of(user)
    body = {"name": "club", "preset": "classic", "options": {"dark_multiplier": 3}}
    stored = client.post("/api/rulesets/", body, format="json")
    assert stored.status_code == 201
    check(document, "/api/rulesets/", "post", stored)
    listed = check(document, "/api/rulesets/", "get", client.get("/api/rulesets/"))
    assert listed["presets"] and listed["stored"][0]["options"] == {"dark_multiplier": 3}


def test_a_refused_ruleset_conforms(client_of: Any, user: Any, document: Document) -> None:
    body = {"name": "odd", "preset": "classic", "options": {"deck": "33"}}
    refused = client_of(user).post("/api/rulesets/", body, format="json")
    assert refused.status_code == 400
    findings = check(document, "/api/rulesets/", "post", refused)["findings"]
    assert findings[0]["code"] == "record.ruleset"


# --- /api/uploads/ -----------------------------------------------------------------------------


def test_an_uploads_items_conform(
    client_of: Any, user: Any, document: Document, record: Any, committed: Any
) -> None:
    client = client_of(user)
    data = (text_of(record(0)) + '\nnot json\n{"format": "raspis/1"}\n').encode()
    with committed():
        accepted = client.post(
            "/api/uploads/",
            {"file": SimpleUploadedFile("games.jsonl", data)},
            format="multipart",
        )
    assert accepted.status_code == 202
    upload = check(document, "/api/uploads/", "post", accepted)
    answer = client.get(upload["url"])
    detail = check(document, "/api/uploads/{upload_id}/", "get", answer)
    outcomes = [(i["outcome"], bool(i["findings"])) for i in detail["items"]]
    assert outcomes == [("stored", False), ("rejected", True), ("rejected", True)]


def test_an_anonymous_upload_conforms(api_client: APIClient, document: Document) -> None:
    refused = api_client.post(
        "/api/uploads/", {"file": SimpleUploadedFile("g.json", b"{}")}, format="multipart"
    )
    assert refused.status_code == 401
    check(document, "/api/uploads/", "post", refused)


@pytest.fixture
def family_games(client_of: Any, user: Any) -> dict[str, int]:
    client = client_of(user)
    records = {
        "rummy": _rummy("meld.invalid"),
        "club": _poker("club_stud", None),
        "casino": _poker("joker_poker", None),
    }
    return {k: post_record(client, r).json()["game"]["id"] for k, r in records.items()}


@pytest.mark.parametrize(
    ("kind", "params", "keys"),
    [
        ("rummy", {"deal": "1", "turn": "0"}, {"melds", "pile_top", "hands"}),
        ("rummy", {"deal": "1"}, {"melds", "out"}),
        ("club", {"hand": "1", "stage": "1", "action": "2"}, {"pot", "seats", "acted"}),
        ("club", {"hand": "2"}, {"pots", "seats"}),
        ("casino", {"hand": "1", "stage": "1", "action": "0"}, {"dealer_cards", "pot"}),
    ],
    ids=["rummy-dealt", "rummy-end", "club-action", "club-end", "casino-start"],
)
def test_a_rummy_or_poker_moment_conforms(
    api_client: APIClient,
    document: Document,
    family_games: dict[str, int],
    kind: str,
    params: dict[str, str],
    keys: set[str],
) -> None:
    answer = api_client.get(f"/api/games/{family_games[kind]}/replay/", params)
    assert answer.status_code == 200, answer.json()
    state = check(document, "/api/games/{game_id}/replay/", "get", answer)
    assert keys <= set(state)
    schema = answer_schema(document, "/api/games/{game_id}/replay/", "get", 200)
    matching = [
        ref
        for ref in (s["$ref"] for s in component(document, schema)["oneOf"])
        if Draft202012Validator(
            as_json_schema({"$ref": ref, "components": document["components"]})
        ).is_valid(state)
    ]
    assert len(matching) == 1


@pytest.mark.parametrize(
    ("kind", "params", "path"),
    [
        ("rummy", {"deal": "9"}, "/deal"),
        ("rummy", {"deal": "1", "turn": "100000"}, "/turn"),
        ("rummy", {"hand": "1"}, "/deal"),
        ("club", {"hand": "99"}, "/hand"),
        ("club", {"hand": "1", "stage": "9"}, "/stage"),
        ("club", {"hand": "1", "stage": "1", "action": "999"}, "/action"),
        ("club", {"hand": "1", "action": "1"}, "/action"),
    ],
)
def test_a_moment_a_rummy_or_poker_game_lacks_is_a_located_400(
    api_client: APIClient,
    document: Document,
    family_games: dict[str, int],
    kind: str,
    params: dict[str, str],
    path: str,
) -> None:
    answer = api_client.get(f"/api/games/{family_games[kind]}/replay/", params)
    assert answer.status_code == 400
    body = check(document, "/api/games/{game_id}/replay/", "get", answer)
    assert body["findings"][0]["path"] == path
