"""Property tests over simulated games: a legal game is ``verified`` with the
simulator's scores, and one injected defect is reported with its code at exactly its deal,
trick, play and seat, and nothing else of error level.

The record is also checked on its own terms, without the verifier: every dealt card is
played exactly once by the seat that holds it, each trick has one play per seat in seat
order, ``taken`` sums to ``cards``, and the seat that leads a trick took the one before
(RULES §4), which ``taken`` must agree with.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import PRESETS, preset_ruleset, verify
from replay.simulate import CORRUPTION_CODES, simulate_game


def _cases(*presets: str) -> list[tuple[str, int]]:
    return [
        (preset, players)
        for preset in presets
        for players in range(
            preset_ruleset(preset).min_players, preset_ruleset(preset).max_players + 1
        )
    ]


FIRST_LEADER_IS_DEALER = {"two_jacks"}


def _card(play: Any) -> str:
    """The card of a play in either notation: ``7S+H`` → ``7S``, ``{"card": "7S"}`` → ``7S``."""
    return play["card"] if isinstance(play, dict) else play[:2]


def _seats_of(trick: list[str], hands: list[Counter[str]], n: int) -> list[int]:
    """The leaders under which every card of the trick is in its seat's remaining hand."""
    return [
        leader
        for leader in range(n)
        if all(hands[(leader + k) % n][card] > 0 for k, card in enumerate(trick))
    ]


def check_conservation(record: dict[str, Any]) -> None:
    n = len(record["players"])
    for number, deal in enumerate(record["deals"], 1):
        cards = deal["cards"]
        assert sum(deal["taken"]) == cards, f"deal {number}: taken sums to cards"
        assert len(deal["tricks"]) == cards, f"deal {number}: one trick per card"
        if "hands" not in deal:
            continue
        hands = [Counter(hand) for hand in deal["hands"]]
        assert all(len(hand) == cards for hand in deal["hands"])
        dealer = deal["dealer"]
        leader = dealer if record["ruleset"] in FIRST_LEADER_IS_DEALER else (dealer + 1) % n
        led_by: Counter[int] = Counter()
        for t, trick in enumerate(deal["tricks"]):
            stated = trick.get("leader") if isinstance(trick, dict) else None
            plays = [_card(p) for p in (trick["plays"] if isinstance(trick, dict) else trick)]
            assert len(plays) == n, f"deal {number} trick {t + 1}: one play per seat"
            if t > 0:
                candidates = _seats_of(plays, hands, n)
                assert candidates, f"deal {number} trick {t + 1}: a card nobody holds"
                leader = stated if stated in candidates else candidates[0]
                led_by[leader] += 1  # the leader took the trick before (RULES §4)
            elif stated is not None:
                assert stated == leader
            assert stated is None or stated == leader
            for k, card in enumerate(plays):
                seat = (leader + k) % n
                assert hands[seat][card] > 0, f"deal {number} trick {t + 1}: {card} not held"
                hands[seat][card] -= 1
        assert all(not +hand for hand in hands), f"deal {number}: every dealt card is played"
        last = [deal["taken"][s] - led_by[s] for s in range(n)]
        assert sorted(last) == [0] * (n - 1) + [1], f"deal {number}: taken = tricks led next"


ALL = _cases(*PRESETS)
WITH_JOKER_DEMANDS = _cases(
    "detsky", "classic", "podkidnoy", "two_jacks", "joker54", "rotating", "georgian"
)
#: Which presets each corruption applies to (RULES §8): the hook is on in classic, joker54,
#: georgian and oh_hell; three passes only in classic; optional blind bids in detsky and
#: rotating; oh_hell has neither must_trump nor jokers; free schedules have no wrong deal.
APPLICABLE: dict[str, list[tuple[str, int]]] = {
    "revoke": ALL,
    "must_trump": [c for c in ALL if c[0] != "oh_hell"],
    "card_played_twice": ALL,
    "hook": _cases("classic", "joker54", "georgian", "oh_hell"),
    "three_passes": _cases("classic"),
    "dark_pass": _cases("detsky", "rotating"),
    "wrong_score": ALL,
    "wrong_total": ALL,
    "wrong_dealer": ALL,
    "duplicate_card": ALL,
    "joker_demand": WITH_JOKER_DEMANDS,
    "wrong_schedule": [c for c in ALL if c[0] not in ("podkidnoy", "oh_hell")],
    "bad_claim": ALL,
}
#: Defects a score sheet can carry (the others need plays or hands).
ON_SHEETS = {"hook", "three_passes", "dark_pass", "wrong_score", "wrong_total", "wrong_dealer"}
ON_SHEETS.add("wrong_schedule")

SEEDS = st.integers(min_value=0, max_value=2**32)
FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _problems(report: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every finding that is not a warning, as (code, deal, trick, play, seat)."""
    return [
        (f["code"], f["deal"], f["trick"], f["play"], f["seat"])
        for f in report["findings"]
        if f["severity"] != "warning"
    ]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(ALL), SEEDS)
def test_a_simulated_game_is_verified_with_the_simulators_scores(
    case: tuple[str, int], seed: int
) -> None:
    record = simulate_game(case[0], case[1], seed)
    out = verify(record).to_dict()
    assert out["verdict"] == "verified", _problems(out)[:3]
    assert _problems(out) == []
    assert out["totals"] == record["totals"]
    assert [d["scores"] for d in out["deals"]] == [d["scores"] for d in record["deals"]]
    check_conservation(record)


@pytest.mark.parametrize(("preset", "players"), ALL)
def test_cards_are_conserved_and_the_winner_leads_next(preset: str, players: int) -> None:
    for seed in (1, 2):
        check_conservation(simulate_game(preset, players, seed))


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(ALL), SEEDS)
def test_a_sheet_is_verified_from_the_sheet(case: tuple[str, int], seed: int) -> None:
    out = verify(simulate_game(case[0], case[1], seed, sheet=True)).to_dict()
    assert (out["verdict"], out["audit"], _problems(out)) == ("verified", "sheet", [])


def _check_corruption(mode: str, case: tuple[str, int], seed: int, sheet: bool) -> None:
    record = simulate_game(case[0], case[1], seed, corrupt=mode, sheet=sheet)
    where = record["meta"]["corruption"]
    assert where["mode"] == mode and where["code"] == CORRUPTION_CODES[mode]
    expected = (where["code"], where["deal"], where["trick"], where["play"], where["seat"])
    out = verify(record).to_dict()
    assert _problems(out) == [expected]
    if where["deal"] is not None:
        assert 1 <= where["deal"] <= len(record["deals"])
    if mode in ("wrong_score", "wrong_total"):
        assert out["verdict"] == "mismatch"
    elif case[0] == "georgian" and mode in ("revoke", "must_trump"):
        assert out["verdict"] == "verified"  # a fine (revoke_penalty), in the claimed scores
    else:
        assert out["verdict"] == "illegal"


def _corruption_test(mode: str) -> Any:
    sheets = st.booleans() if mode in ON_SHEETS else st.just(False)

    @FAST
    @given(st.sampled_from(APPLICABLE[mode]), SEEDS, sheets)
    def test(case: tuple[str, int], seed: int, sheet: bool) -> None:
        _check_corruption(mode, case, seed, sheet)

    test.__doc__ = f"``{mode}`` → ``{CORRUPTION_CODES[mode]}`` at its place, and nothing else."
    return test


test_corruption_revoke = _corruption_test("revoke")
test_corruption_must_trump = _corruption_test("must_trump")
test_corruption_card_played_twice = _corruption_test("card_played_twice")
test_corruption_hook = _corruption_test("hook")
test_corruption_three_passes = _corruption_test("three_passes")
test_corruption_dark_pass = _corruption_test("dark_pass")
test_corruption_wrong_score = _corruption_test("wrong_score")
test_corruption_wrong_total = _corruption_test("wrong_total")
test_corruption_wrong_dealer = _corruption_test("wrong_dealer")
test_corruption_duplicate_card = _corruption_test("duplicate_card")
test_corruption_joker_demand = _corruption_test("joker_demand")
test_corruption_wrong_schedule = _corruption_test("wrong_schedule")
test_corruption_bad_claim = _corruption_test("bad_claim")


@FAST
@given(st.sampled_from(ALL), SEEDS)
def test_a_claim_the_simulator_makes_with_a_winning_hand_is_accepted(
    case: tuple[str, int], seed: int
) -> None:
    """With ``claims``, the seat to lead claims the rest when the simulator's own search
    (every play tried) says it takes every trick: the replay's solver must agree, and the
    claimed tricks are scored as the simulator scored them."""
    record = simulate_game(case[0], case[1], seed, claims=True)
    out = verify(record).to_dict()
    assert (out["verdict"], _problems(out)) == ("verified", [])
    assert [d["taken"] for d in out["deals"]] == [d["taken"] for d in record["deals"]]
    assert out["totals"] == record["totals"]
    claimed = [d for d in record["deals"] if "claim" in d]
    assert [d.get("claim") for d in out["deals"] if "claim" in d] == [
        {"seat": d["claim"]["seat"], "tricks": d["cards"] - len(d["tricks"])} for d in claimed
    ]
    unchecked = [f for f in out["findings"] if f["code"] == "claim.unchecked"]
    assert all("hands" not in record["deals"][f["deal"] - 1] for f in unchecked)


def test_every_corruption_has_a_property_test() -> None:
    assert set(APPLICABLE) == set(CORRUPTION_CODES)
    names = {name for name in globals() if name.startswith("test_corruption_")}
    assert names == {f"test_corruption_{mode}" for mode in CORRUPTION_CODES}
