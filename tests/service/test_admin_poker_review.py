"""The review page of a poker game: each finding with the table at its hand, stage and
action, the hands recomputed against claimed, and a dispute decided like any other."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client

from games.models import Dispute, Game, GameSeat
from games.services import dispute_open
from replay.poker.corruptions import corrupt
from replay.poker.simulate import simulate_record
from replay.poker.state import hand_moments
from tests.service.conftest import store_game

pytestmark = pytest.mark.django_db


def review(game_id: int) -> str:
    return f"/admin/games/game/{game_id}/review/"


def test_each_finding_shows_the_table_at_its_moment(admin_web: Client, user: Any) -> None:
    record = corrupt(simulate_record("club_stud", 4, 4, 3), "bet.amount", random.Random(1))
    where = record["meta"]["corruption"]
    hand, stage, action = where["hand"], where["stage"], where["action"]
    game_id = store_game(record, user)

    response = admin_web.get(review(game_id))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Plays, trick by trick" not in page  # the trick-taking sections are left out
    assert "<th>Players</th><td>P1, P2, P3, P4</td><th>Hands</th>" in page
    found = re.search(r'<div class="poker-finding" id="finding-1">(.*?)</div>', page, re.S)
    assert found is not None
    block = found.group(1)
    assert f"hand {hand}, stage {stage}, action {action}" in block
    assert f"?hand={hand}&amp;stage={stage}&amp;action={action}#replay" in block
    assert "bet.amount" in block
    moments = hand_moments(record, hand)
    assert moments is not None
    state = moments.at((stage, action))
    assert state is not None
    assert f"Pot {state.pot}" in block
    offending = re.search(r'<tr class="offending">(.*?)</tr>', block, re.S)
    assert offending is not None
    seat = state.seats[where["seat"]]
    cells = re.findall(r"<td>(.*?)</td>", offending.group(1), re.S)
    assert [int(c) for c in cells[1:4]] == [seat.bet, seat.paid, seat.stack]
    # The first card lies face down, in italics; the others face up.
    assert f"<i>{seat.cards[0].name}</i>" in cells[0]
    assert all(f"<i>{c.name}</i>" not in cells[0] for c in seat.cards[1:])


def test_a_claimed_net_that_differs_is_marked_in_the_hands(admin_web: Client, user: Any) -> None:
    record = corrupt(simulate_record("club_stud", 3, 4, 2), "result.payout", random.Random(2))
    where = record["meta"]["corruption"]
    game_id = store_game(record, user)
    page = admin_web.get(review(game_id)).content.decode()
    row = re.search(rf'<tr id="hand-{where["hand"]}">(.*?)</tr>', page, re.S)
    assert row is not None
    claimed = record["hands"][where["hand"] - 1]["net"][where["seat"]]
    assert f"(claimed {claimed})" in row.group(1)


def test_a_casino_finding_shows_the_dealer_s_face_up_card(admin_web: Client, user: Any) -> None:
    record = corrupt(simulate_record("joker_poker", 3, 4, 2), "bet.action", random.Random(3))
    game_id = store_game(record, user)
    page = admin_web.get(review(game_id)).content.decode()
    dealer = re.search(r"<tr><th>dealer \(house\)</th><td>(.*?)</td>", page, re.S)
    assert dealer is not None
    hand = record["meta"]["corruption"]["hand"]
    up = record["hands"][hand - 1]["dealer_cards"][4]
    assert dealer.group(1).split() == ["<i>??</i>"] * 4 + [up]


def test_a_poker_dispute_is_corrected_with_each_seat_s_chips(admin_web: Client, user: Any) -> None:
    game_id = store_game(simulate_record("club_stud", 3, 3, 4), user)
    game = Game.objects.get(pk=game_id)
    dispute = dispute_open(game=game, by=user, reason="hand 2 was misdealt", deal=2)
    prefix = f"dispute-{dispute.pk}"
    page = admin_web.get(review(game_id)).content.decode()
    # The form is pre-filled with the recomputed chips won.
    for seat in GameSeat.objects.filter(game=game):
        assert re.search(rf'name="{prefix}-total_{seat.seat}"[^>]*value="{int(seat.total)}"', page)
    response = admin_web.post(
        review(game_id),
        {
            "action": "decide",
            "dispute": dispute.pk,
            f"{prefix}-decision": "corrected",
            f"{prefix}-note": "the chips were counted wrong",
            f"{prefix}-total_0": "5",
            f"{prefix}-total_1": "-5",
            f"{prefix}-total_2": "0",
        },
    )
    assert response.status_code == 302
    assert Dispute.objects.get(pk=dispute.pk).status == "corrected"
    totals = list(GameSeat.objects.filter(game=game).order_by("seat").values_list("total", "place"))
    assert [(int(t), p) for t, p in totals] == [(5, 1), (-5, 3), (0, 2)]
