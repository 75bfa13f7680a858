"""Disputes: POST /api/games/{id}/disputes/, GET /api/disputes/, POST .../resolve/ (staff)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Dispute, Game, GameSeat
from games.signals import game_changed
from tests.service.conftest import findings_of, post_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(client_of: Any, user: Any, record: Any) -> dict[str, Any]:
    return post_record(client_of(user), record()).json()["game"]


def dispute(client: APIClient, game: dict[str, Any], **body: Any) -> Any:
    return client.post(
        f"/api/games/{game['id']}/disputes/",
        {"reason": "deal 3 was misdealt", **body},
        format="json",
    )


def resolve(client: APIClient, dispute_id: int, **body: Any) -> Any:
    return client.post(f"/api/disputes/{dispute_id}/resolve/", body, format="json")


def test_a_user_disputes_a_game_which_becomes_disputed(
    client_of: Any, other_user: Any, game: dict[str, Any]
) -> None:
    response = dispute(client_of(other_user), game, deal=3, trick=2)
    assert response.status_code == 201
    body = response.json()
    assert (body["status"], body["deal"], body["trick"], body["opened_by"]) == (
        "open",
        3,
        2,
        "boris",
    )
    assert Game.objects.get(pk=game["id"]).status == "disputed"


def test_anonymous_users_cannot_dispute(api_client: APIClient, game: dict[str, Any]) -> None:
    response = dispute(api_client, game)
    assert response.status_code == 401
    assert Dispute.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "path"),
    [({"reason": ""}, "/reason"), ({"deal": 99}, "/deal"), ({"deal": "x"}, "/deal")],
)
def test_a_bad_dispute_is_refused_with_findings(
    client_of: Any, other_user: Any, game: dict[str, Any], body: dict[str, Any], path: str
) -> None:
    response = dispute(client_of(other_user), game, **body)
    assert response.status_code == 400
    assert findings_of(response)[0]["path"] == path
    assert Game.objects.get(pk=game["id"]).status == "verified"


@pytest.mark.parametrize("trick", [2, 10**20])
def test_a_trick_past_the_deal_is_refused_at_trick(
    client_of: Any, other_user: Any, game: dict[str, Any], record: Any, trick: int
) -> None:
    """The first deal has one card a hand, so one trick; a number past PostgreSQL's integer
    range was a 500 (the row was refused) before the trick was checked."""
    assert record()["deals"][0]["cards"] == 1
    response = dispute(client_of(other_user), game, deal=1, trick=trick)
    assert response.status_code == 400
    finding = findings_of(response)[0]
    assert (finding["path"], finding["expected"], finding["actual"]) == ("/trick", 1, trick)
    assert Dispute.objects.count() == 0
    assert Game.objects.get(pk=game["id"]).status == "verified"


def test_the_last_trick_of_a_deal_may_be_disputed(
    client_of: Any, other_user: Any, game: dict[str, Any]
) -> None:
    assert dispute(client_of(other_user), game, deal=1, trick=1).status_code == 201


def test_nobody_disputes_a_game_they_cannot_see(
    client_of: Any, user: Any, other_user: Any, record: Any
) -> None:
    private = post_record(client_of(user), record(), visibility="private").json()["game"]
    assert dispute(client_of(other_user), private).status_code == 404


def test_the_list_shows_staff_everything_and_users_what_they_may_see(
    client_of: Any, user: Any, other_user: Any, staff_user: Any, record: Any, api_client: APIClient
) -> None:
    public = post_record(client_of(user), record(0)).json()["game"]
    private = post_record(client_of(user), record(1), visibility="private").json()["game"]
    on_public = dispute(client_of(other_user), public).json()["id"]
    on_private = dispute(client_of(user), private).json()["id"]

    def listed(client: APIClient) -> set[int]:
        return {d["id"] for d in client.get("/api/disputes/").json()["results"]}

    assert listed(client_of(staff_user)) == {on_public, on_private}
    assert listed(client_of(user)) == {on_public, on_private}
    assert listed(client_of(other_user)) == {on_public}
    assert listed(api_client) == {on_public}


def test_only_staff_resolve_disputes(
    client_of: Any, user: Any, other_user: Any, api_client: APIClient, game: dict[str, Any]
) -> None:
    dispute_id = dispute(client_of(other_user), game).json()["id"]
    assert resolve(api_client, dispute_id, decision="rejected").status_code == 401
    response = resolve(client_of(user), dispute_id, decision="rejected")
    assert response.status_code == 403
    assert findings_of(response)[0]["code"] == "request.forbidden"
    assert Dispute.objects.get().status == "open"


def test_a_rejected_dispute_returns_the_game_to_its_verdict(
    client_of: Any, other_user: Any, staff_user: Any, game: dict[str, Any]
) -> None:
    dispute_id = dispute(client_of(other_user), game).json()["id"]
    response = resolve(
        client_of(staff_user), dispute_id, decision="rejected", note="sheet is right"
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["note"], body["decided_by"]) == (
        "rejected",
        "sheet is right",
        "vera",
    )
    assert body["decided_at"]
    assert Game.objects.get(pk=game["id"]).status == "verified"


def test_an_upheld_dispute_flags_the_game(
    client_of: Any, other_user: Any, staff_user: Any, game: dict[str, Any]
) -> None:
    dispute_id = dispute(client_of(other_user), game).json()["id"]
    resolve(client_of(staff_user), dispute_id, decision="upheld")
    assert Game.objects.get(pk=game["id"]).status == "flagged"


def test_a_correction_sets_the_totals_and_resolves_the_game(
    client_of: Any, other_user: Any, staff_user: Any, game: dict[str, Any], committed: Any
) -> None:
    dispute_id = dispute(client_of(other_user), game).json()["id"]
    seen: list[list[int]] = []

    def listener(sender: object, game_ids: list[int], **kwargs: Any) -> None:
        seen.append(game_ids)

    game_changed.connect(listener)
    try:
        with committed():
            with_scores = resolve(
                client_of(staff_user),
                dispute_id,
                decision="corrected",
                corrected_scores=[10, 30, 7.5, 30],
            )
    finally:
        game_changed.disconnect(listener)
    assert with_scores.status_code == 200, with_scores.json()
    assert with_scores.json()["corrected_scores"] == ["10.0000", "30.0000", "7.5000", "30.0000"]
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    stated = schema["components"]["schemas"]["Dispute"]["properties"]["corrected_scores"]
    assert (stated["type"], stated["items"]["type"], stated["nullable"]) == (
        "array",
        "string",
        True,
    )
    assert Game.objects.get(pk=game["id"]).status == "resolved"
    seats = GameSeat.objects.filter(game_id=game["id"]).order_by("seat")
    assert [(float(s.total), s.place, s.winner) for s in seats] == [
        (10, 3, False),
        (30, 1, True),
        (7.5, 4, False),
        (30, 1, True),
    ]
    assert [game["id"]] in seen


def test_a_correction_needs_a_total_per_seat(
    client_of: Any, other_user: Any, staff_user: Any, game: dict[str, Any]
) -> None:
    dispute_id = dispute(client_of(other_user), game).json()["id"]
    response = resolve(
        client_of(staff_user), dispute_id, decision="corrected", corrected_scores=[1]
    )
    assert response.status_code == 400
    assert findings_of(response)[0]["path"] == "/corrected_scores"
    assert Dispute.objects.get().status == "open"


def test_a_dispute_is_decided_once(
    client_of: Any, other_user: Any, staff_user: Any, game: dict[str, Any]
) -> None:
    dispute_id = dispute(client_of(other_user), game).json()["id"]
    resolve(client_of(staff_user), dispute_id, decision="rejected")
    response = resolve(client_of(staff_user), dispute_id, decision="upheld")
    assert response.status_code == 409
    assert Dispute.objects.get().status == "rejected"


def test_the_game_stays_disputed_while_another_dispute_is_open(
    client_of: Any, user: Any, other_user: Any, staff_user: Any, game: dict[str, Any]
) -> None:
    first = dispute(client_of(other_user), game).json()["id"]
    dispute(client_of(user), game)
    resolve(client_of(staff_user), first, decision="rejected")
    assert Game.objects.get(pk=game["id"]).status == "disputed"
