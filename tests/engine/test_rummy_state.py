"""The table of a rummy deal after a given turn (``replay.rummy.state``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from replay import NoSuchMoment
from replay.rummy.cards import card_name, read_card
from replay.rummy.melds import run_positions
from replay.rummy.rulesets import resolve
from replay.rummy.simulate import simulate_game
from replay.rummy.state import TurnState, state_after


def at(record: dict[str, Any], deal: int, turn: int | None) -> TurnState:
    state, report, findings = state_after(record, deal, turn)
    assert state is not None and report is not None and not findings
    return state


def canonical(cards: list[str]) -> Counter[str]:
    return Counter(
        card_name(c) for c in (read_card(x.partition("=")[0]) for x in cards) if c is not None
    )


def test_turn_0_is_the_deal_as_dealt() -> None:
    record = simulate_game("joker_rummy", 3, 1)
    deal = record["deals"][0]
    state = at(record, 1, 0)
    assert [canonical(h) for h in state.hands] == [canonical(h) for h in deal["hands"]]
    assert (state.melds, state.pile_top, state.pile, state.seat) == ([], None, 0, None)
    assert state.stock == len(deal["stock"])
    assert state.turns == len(deal["turns"]) and state.dealer == deal["dealer"]


def test_each_turn_s_discard_is_the_pile_s_top_and_the_cards_add_up_to_the_deck() -> None:
    record = simulate_game("joker_rummy", 4, 5)
    rules = resolve("joker_rummy")
    assert not isinstance(rules, str)
    for d, deal in enumerate(record["deals"], 1):
        before = at(record, d, 0)
        for t, turn in enumerate(deal["turns"], 1):
            state = at(record, d, t)
            assert state.seat == turn["seat"]
            discard = turn["discard"] if isinstance(turn["discard"], list) else [turn["discard"]]
            assert state.discard == [card_name(read_card(c) or 0) for c in discard]
            assert state.pile_top == state.discard[-1]
            held = sum(len(h) for h in state.hands)
            laid = sum(len(m.cards) for m in state.melds)
            assert held + laid + state.pile + state.stock == rules.size
            if state.draw == "stock" and before.stock > 1:
                assert (state.stock, state.pile) == (before.stock - 1, before.pile + len(discard))
            elif state.draw == "discard":
                assert (state.stock, state.pile) == (before.stock, before.pile - 1 + len(discard))
            before = state
        assert state.out == deal["out"] and not state.hands[deal["out"]]


def test_melds_are_numbered_with_their_owner_and_runs_read_along_the_run() -> None:
    record = simulate_game("joker_rummy", 3, 2)
    turns = record["deals"][0]["turns"]
    laid: list[int] = []  # the seat of each meld laid, in order
    for turn in turns:
        laid += [turn["seat"] for action in turn.get("actions", ()) if "meld" in action]
    state = at(record, 1, None)
    assert [m.number for m in state.melds] == list(range(1, len(laid) + 1))[: len(state.melds)]
    assert [m.owner for m in state.melds] == laid[: len(state.melds)]
    runs = [m for m in state.melds if m.kind == "run"]
    assert runs, "the game lays no run"
    for meld in runs:
        ranks = [(read_card(c.split("=")[-1]) or 0) % 13 for c in meld.cards]
        positions = run_positions(ranks)
        assert positions is not None
        along = [
            0 if r == 12 and i == 0 and positions[0] == 0 else 13 if r == 12 else r + 1
            for i, r in enumerate(ranks)
        ]
        assert along == sorted(along) == positions


def test_a_finding_is_running_from_its_turn_on() -> None:
    record = simulate_game("joker_rummy", 3, 1, corrupt_mode="meld.invalid")
    where = record["meta"]["corruption"]
    deal, turn = where["deal"], where["turn"]
    before = at(record, deal, turn - 1)
    assert "meld.invalid" not in {f.code for f in before.findings}
    state = at(record, deal, turn)
    (finding,) = [f for f in state.findings if f.code == "meld.invalid"]
    assert (finding.turn, finding.action, finding.seat) == (turn, where["action"], where["seat"])
    assert state.findings == before.findings + [f for f in state.findings if f.turn == turn]


def test_a_turn_after_the_going_out_moves_nothing() -> None:
    record = simulate_game("joker_rummy", 3, 4, corrupt_mode="turn.after_out")
    where = record["meta"]["corruption"]
    deal, turn = where["deal"], where["turn"]
    out = at(record, deal, turn - 1)
    after = at(record, deal, turn)
    assert out.replayed and not after.replayed
    assert (after.melds, after.hands, after.pile_top, after.stock) == (
        out.melds,
        out.hands,
        out.pile_top,
        out.stock,
    )
    assert "turn.after_out" in {f.code for f in after.findings}


def test_the_last_turn_of_the_game_holds_every_finding() -> None:
    record = simulate_game("joker_rummy", 3, 1, corrupt_mode="result.total")
    state, report, _ = state_after(record, len(record["deals"]), None)
    assert state is not None and report is not None
    assert state.findings == report.findings and report.findings


def test_a_sheet_deal_has_only_its_start() -> None:
    record = simulate_game("joker_rummy", 3, 1, sheet=True)
    state = at(record, 1, None)
    assert (state.turn, state.turns, state.hands, state.melds) == (0, 0, [], [])
    with pytest.raises(NoSuchMoment):
        state_after(record, 1, 1)


@pytest.mark.parametrize(
    ("deal", "turn", "name"), [(0, 0, "deal"), (9, 0, "deal"), (1, -1, "turn"), (1, 999, "turn")]
)
def test_a_moment_the_record_lacks_is_no_such_moment(deal: int, turn: int, name: str) -> None:
    record = simulate_game("joker_rummy", 3, 1)
    with pytest.raises(NoSuchMoment) as raised:
        state_after(record, deal, turn)
    assert raised.value.name == name


def test_a_malformed_record_has_no_state() -> None:
    state, report, findings = state_after({"format": "raspis-rummy/1"}, 1, 0)
    assert state is None and report is None and findings
