"""Rummy and poker records are stored like the trick-taking family's: a game of their
family, seats ranked by the family's measure, findings in the family's places, and the rows
their statistics read, rebuilt when a record is replaced or re-verified."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from typing import Any

import pytest

from games.models import Game, GameSeat, GameStatus
from replay import verify
from replay.poker.simulate import simulate_record
from replay.rummy.simulate import simulate_game
from verification.models import Finding, PokerSeatHand, RummySeatDeal, SeatDeal
from verification.services.reverify import games_reverify

pytestmark = pytest.mark.django_db


def _post(client: Any, record: dict[str, Any]) -> Any:
    return client.post("/api/games/", json.dumps(record), content_type="application/json")


def test_a_rummy_game_is_stored_with_the_lowest_total_first(client_of: Any, user: Any) -> None:
    record = simulate_game("joker_rummy", 3, 1)
    report = verify(record)
    response = _post(client_of(user), record)
    assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=response.json()["game"]["id"])
    assert (game.family, game.ruleset_preset, game.status) == ("rummy", "joker_rummy", "verified")
    assert (game.audit, game.deals_count, game.players_count) == ("full", len(report.deals), 3)
    seats = list(GameSeat.objects.filter(game=game).order_by("seat"))
    assert [s.total for s in seats] == [Decimal(t) for t in report.totals]
    low = min(report.totals)
    for s in seats:
        assert s.place == 1 + sum(1 for t in report.totals if t < s.total)
        assert s.winner is (s.total == low)
    assert not SeatDeal.objects.filter(game=game).exists()


def test_a_rummy_game_keeps_each_seat_s_going_out_and_opening(client_of: Any, user: Any) -> None:
    record = simulate_game("joker_rummy", 3, 1)
    report = verify(record)
    game_id = _post(client_of(user), record).json()["game"]["id"]
    rows = {(r.number, r.seat): r for r in RummySeatDeal.objects.filter(game_id=game_id)}
    assert len(rows) == 3 * len(report.deals)
    for deal in report.deals:
        assert deal.openings is not None and deal.out_turn is not None
        for seat in range(3):
            row = rows[deal.number, seat]
            assert (row.points, row.running) == (deal.points[seat], deal.running[seat])
            assert row.out is (seat == deal.out) and row.full
            if seat == deal.out:
                # The first player's first turn is turn 1 of round 1: rounds of 3 turns.
                assert row.out_round == (deal.out_turn - 1) // 3 + 1
                assert row.points < 0  # going out scores minus points
            else:
                assert row.out_round is None and row.out_jokers == 0
            opening = deal.openings[seat]
            assert row.opened is (opening is not None)
            if opening is not None:
                assert (row.opened_round, row.opening) == ((opening[0] - 1) // 3 + 1, opening[1])
                assert row.opening >= 51


def test_a_rummy_finding_is_kept_at_its_deal_turn_and_action(client_of: Any, user: Any) -> None:
    record = simulate_game("joker_rummy", 3, 1, corrupt_mode="meld.invalid")
    where = record["meta"]["corruption"]
    client = client_of(user)
    game_id = _post(client, record).json()["game"]["id"]
    game = Game.objects.get(pk=game_id)
    assert (game.verdict, game.status) == ("illegal", GameStatus.FLAGGED)
    row = Finding.objects.get(game=game, code="meld.invalid")
    assert {k: row.to_dict("rummy")[k] for k in where} == where
    detail = client.get(f"/api/games/{game_id}/").json()
    assert detail["family"] == "rummy"
    (first,) = [f for f in detail["findings"] if f["code"] == "meld.invalid"]
    assert {k: first[k] for k in where} == where
    assert "trick" not in first and "turn" in first


def test_a_club_poker_game_keeps_every_seat_dealt_in(client_of: Any, user: Any) -> None:
    record = simulate_record("club_stud", 4, 6, 1)
    report = verify(record)
    game_id = _post(client_of(user), record).json()["game"]["id"]
    game = Game.objects.get(pk=game_id)
    assert (game.family, game.audit, game.deals_count) == ("poker", "full", len(report.hands))
    rows = list(PokerSeatHand.objects.filter(game=game).order_by("number", "seat"))
    assert len(rows) == 4 * len(report.hands)
    assert sum(r.net for r in rows) == 0  # the club game's chips only change hands
    for r in rows:
        hand = report.hands[r.number - 1]
        assert (r.net, r.won) == (hand.net[r.seat], r.seat in hand.winners)
        assert (r.showdown, r.category) == (
            hand.ranks[r.seat] is not None,
            hand.ranks[r.seat] or "",
        )
        assert r.folded == hand.folded[r.seat]
    nets = [sum(h.net[s] for h in report.hands) for s in range(4)]
    seats = list(GameSeat.objects.filter(game=game).order_by("seat"))
    assert [s.total for s in seats] == nets
    assert [s.winner for s in seats] == [n == max(nets) > 0 for n in nets]


def test_a_casino_seat_sitting_out_has_no_row(client_of: Any, user: Any) -> None:
    record = simulate_record("joker_poker", 3, 4, 2)
    record["hands"][0]["antes"][1] = 0
    record["hands"][0]["cards"][1] = []
    for stage in record["hands"][0]["stages"]:
        stage[:] = [a for a in stage if a["seat"] != 1]
    for claim in ("net", "stacks", "winners"):
        record["hands"][0].pop(claim, None)
    game_id = _post(client_of(user), record).json()["game"]["id"]
    seats = set(
        PokerSeatHand.objects.filter(game_id=game_id, number=1).values_list("seat", flat=True)
    )
    assert seats == {0, 2}


def test_a_replaced_rummy_record_rebuilds_its_rows(client_of: Any, user: Any) -> None:
    record = simulate_game("joker_rummy", 3, 1)
    record["meta"] = {"external_id": "night-1"}
    client = client_of(user)
    game_id = _post(client, record).json()["game"]["id"]
    shorter = copy.deepcopy(record)
    shorter["deals"] = shorter["deals"][:1]
    shorter.pop("totals")
    response = _post(client, shorter)
    assert response.json()["game"]["id"] == game_id
    assert set(RummySeatDeal.objects.filter(game_id=game_id).values_list("number", flat=True)) == {
        1
    }
    assert Game.objects.get(pk=game_id).deals_count == 1


def test_re_verification_replays_rummy_and_poker_records(client_of: Any, user: Any) -> None:
    client = client_of(user)
    ids = [
        _post(client, simulate_game("joker_rummy", 2, 3)).json()["game"]["id"],
        _post(client, simulate_record("club_stud", 3, 4, 3)).json()["game"]["id"],
    ]
    before = {
        "rummy": list(RummySeatDeal.objects.values_list("number", "seat", "points", "opening")),
        "poker": list(PokerSeatHand.objects.values_list("number", "seat", "net", "category")),
    }
    games_reverify(game_ids=ids)
    assert list(Game.objects.filter(pk__in=ids).values_list("verdict", flat=True)) == [
        "verified",
        "verified",
    ]
    after = {
        "rummy": list(RummySeatDeal.objects.values_list("number", "seat", "points", "opening")),
        "poker": list(PokerSeatHand.objects.values_list("number", "seat", "net", "category")),
    }
    assert after == before and before["rummy"] and before["poker"]


def test_games_are_listed_by_family(client_of: Any, user: Any) -> None:
    client = client_of(user)
    _post(client, simulate_game("joker_rummy", 2, 1))
    _post(client, simulate_record("club_stud", 2, 2, 1))
    for family in ("rummy", "poker"):
        listed = client.get(f"/api/games/?family={family}").json()["results"]
        assert [g["family"] for g in listed] == [family]
    assert client.get("/api/games/?ruleset=joker_rummy").json()["count"] == 1
    assert client.get("/api/games/?family=chess").status_code == 400


def test_a_rummy_correction_ranks_the_lowest_total_first(
    client_of: Any, user: Any, other_user: Any, staff_user: Any
) -> None:
    game_id = _post(client_of(user), simulate_game("joker_rummy", 3, 1)).json()["game"]["id"]
    opened = client_of(other_user).post(
        f"/api/games/{game_id}/disputes/", {"reason": "the sheet says otherwise"}, format="json"
    )
    assert opened.status_code == 201, opened.json()
    resolved = client_of(staff_user).post(
        f"/api/disputes/{opened.json()['id']}/resolve/",
        {"decision": "corrected", "corrected_scores": [40, -60, 40]},
        format="json",
    )
    assert resolved.status_code == 200, resolved.json()
    seats = GameSeat.objects.filter(game_id=game_id).order_by("seat")
    assert [(s.place, s.winner) for s in seats] == [(2, False), (1, True), (2, False)]


@pytest.mark.parametrize(
    ("record", "where", "words"),
    [
        (simulate_game("joker_rummy", 2, 1), {"deal": 1, "trick": 10**12}, "deal 1 has no turn"),
        (simulate_record("club_stud", 2, 2, 1), {"deal": 1, "trick": 6}, "hand 1 has no stage 6"),
        (simulate_record("club_stud", 2, 2, 1), {"deal": 9}, "hand 9 does not exist"),
    ],
    ids=["rummy-turn", "poker-stage", "poker-hand"],
)
def test_a_dispute_names_the_family_s_places(
    client_of: Any, user: Any, other_user: Any, record: Any, where: Any, words: str
) -> None:
    game_id = _post(client_of(user), record).json()["game"]["id"]
    response = client_of(other_user).post(
        f"/api/games/{game_id}/disputes/", {"reason": "wrong", **where}, format="json"
    )
    assert response.status_code == 400
    assert words in response.json()["findings"][0]["message"]
    turns = len(record["deals"][0]["turns"]) if "deals" in record else 5
    fine = client_of(other_user).post(
        f"/api/games/{game_id}/disputes/",
        {"reason": "wrong", "deal": 1, "trick": turns},
        format="json",
    )
    assert fine.status_code == 201
