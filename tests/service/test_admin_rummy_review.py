"""The admin's review page of a rummy game: findings at their deal, turn and action, the
points claimed against the replay's, and the table at each finding's turn."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from replay.rummy.simulate import simulate_game
from replay.rummy.state import state_after
from tests.service.conftest import store_game

pytestmark = pytest.mark.django_db


def review(game_id: int) -> str:
    return f"/admin/games/game/{game_id}/review/"


def block(page: str, element_id: str) -> str:
    found = re.search(rf'<(\w+) id="{element_id}"[^>]*>.*?</\1>', page, re.S)
    assert found, f"no element #{element_id}"
    return found.group(0)


def test_the_table_at_the_offending_turn_shows_the_melds_and_each_hand(
    admin_web: Client, user: Any
) -> None:
    record = simulate_game("joker_rummy", 3, 1, corrupt_mode="meld.invalid")
    where = record["meta"]["corruption"]
    deal, turn = where["deal"], where["turn"]
    game_id = store_game(record, user)

    response = admin_web.get(review(game_id))

    assert response.status_code == 200
    page = response.content.decode()
    anchor = f"deal-{deal}-turn-{turn}"
    assert f'href="#{anchor}"' in page
    assert f"deal {deal}, turn {turn}, action {where['action']}" in page
    table = block(page, anchor)
    state, _, _ = state_after(record, deal, turn)
    assert state is not None
    assert "meld.invalid" in table and record["players"][where["seat"]] in table
    for meld in state.melds:
        owner, cards = record["players"][meld.owner], " ".join(meld.cards)
        row = f"<td>{meld.number}</td><td>{owner}</td><td>{cards}</td>"
        assert row in table
    # The invalid meld laid by the action at fault is marked.
    invalid = [m for m in state.melds if m.kind is None]
    assert invalid and f'<tr class="offending"><td>{invalid[-1].number}</td>' in table
    for player, hand in zip(record["players"], state.hands, strict=True):
        assert f'<th scope="row">{player}</th><td>{len(hand)} card' in table
        assert " ".join(hand) in table
    assert f"Stock: {state.stock} card" in table and f"pile: {state.pile_top}" in table


def test_claimed_points_that_differ_are_marked_beside_the_replay_s(
    admin_web: Client, user: Any
) -> None:
    record = simulate_game("joker_rummy", 3, 1, corrupt_mode="result.points")
    where = record["meta"]["corruption"]
    game_id = store_game(record, user)
    page = admin_web.get(review(game_id)).content.decode()
    row = block(page, f"deal-{where['deal']}")
    claimed = record["deals"][where["deal"] - 1]["points"][where["seat"]]
    assert f"(claimed {claimed})</mark>" in row
    assert page.count('<mark class="differs"') >= 1
