"""The table of a poker hand at each moment (``replay.poker.state``): the replay's own
stacks, bets and pots, cards as the table saw them, and a moment for every finding."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from replay.poker.corruptions import corrupt
from replay.poker.game import verify
from replay.poker.parse import Act
from replay.poker.simulate import simulate_record
from replay.poker.state import END, hand_moments


@pytest.mark.parametrize("seed", range(4))
def test_a_club_hand_steps_from_its_antes_to_the_pots_paid(seed: int) -> None:
    record = simulate_record("club_stud", 4, 4, seed)
    report = verify(record)
    for result in report.hands:
        moments = hand_moments(record, result.number)
        assert moments is not None and moments.hands == len(report.hands)
        states = moments.states
        # Every stage of the five has its start; the end comes last.
        assert [s.action for s in states if s.stage is not None].count(0) == 5
        assert moments.moments[-1] == END
        first, end = states[0], states[-1]
        assert first.pot == sum(1 for s in first.seats if s.dealt)  # the antes of 1
        assert all(len(s.cards) == 2 for s in first.seats if s.dealt)
        assert [s.stack for s in end.seats] == result.stacks
        assert [s.net for s in end.seats] == result.net
        assert end.pots is not None and end.pot == sum(p.amount for p in end.pots)
        for before, after in pairwise(states[:-1]):
            act = after.acted
            if act is None or after.stage != before.stage:
                continue
            seat = act.seat
            added = after.seats[seat].bet - before.seats[seat].bet
            assert after.pot - before.pot == added
            assert before.seats[seat].stack - after.seats[seat].stack == added
            if act.act in (Act.BET, Act.RAISE):
                assert after.seats[seat].bet == act.amount == after.current


def test_the_down_card_is_turned_only_at_the_showdown() -> None:
    record = simulate_record("club_stud", 3, 8, 5)
    report = verify(record)
    shown = next(h for h in report.hands if any(r is not None for r in h.ranks))
    moments = hand_moments(record, shown.number)
    assert moments is not None
    for state in moments.states[:-1]:
        for seat in state.seats:
            assert [c.up for c in seat.cards] == [i > 0 for i in range(len(seat.cards))]
    end = moments.states[-1]
    for seat in end.seats:
        if seat.category is not None:
            assert len(seat.cards) == 5 and all(c.up and c.name != "??" for c in seat.cards)
            assert seat.category == shown.ranks[seat.seat]


def test_the_casino_dealer_shows_one_card_until_the_end() -> None:
    record = simulate_record("joker_poker", 3, 3, 2)
    report = verify(record)
    moments = hand_moments(record, 1)
    assert moments is not None
    dealt = record["hands"][0]["dealer_cards"]
    for state in moments.states[:-1]:
        assert state.dealer_cards is not None
        assert [c.name for c in state.dealer_cards][:4] == ["??"] * 4
        assert [c.up for c in state.dealer_cards] == [False] * 4 + [True]
        assert state.dealer_rank is None
    end = moments.states[-1]
    assert end.dealer_cards is not None
    assert [c.name for c in end.dealer_cards] == dealt
    assert end.dealer_rank == report.hands[0].dealer_rank
    assert [s.stack for s in end.seats] == report.hands[0].stacks


@pytest.mark.parametrize(
    "code", ["bet.after_fold", "bet.order", "bet.amount", "exchange.card", "bet.missing"]
)
def test_every_finding_has_its_moment(code: str) -> None:
    record = corrupt(simulate_record("club_stud", 4, 4, 3), code, random.Random(1))
    report = verify(record)
    for finding in report.findings:
        assert finding.hand is not None
        moments = hand_moments(record, finding.hand)
        assert moments is not None
        state = moments.find(finding.stage, finding.action)
        assert state is not None, finding
        if finding.stage is None:
            assert state.end
        elif finding.action is not None:
            assert (state.stage, state.action) == (finding.stage, finding.action)


def test_a_malformed_record_or_a_missing_hand_has_no_moments() -> None:
    record = simulate_record("club_stud", 2, 2, 0)
    assert hand_moments(record, len(record["hands"]) + 1) is None
    assert hand_moments({**record, "format": "raspis-poker/9"}, 1) is None


def test_a_drawn_joker_is_named_at_every_moment() -> None:
    record = simulate_record("j_poker", 2, 2, 1)
    moments = hand_moments(record, 2)
    assert moments is not None
    assert {s.joker for s in moments.states} == {record["hands"][1]["joker"]}
