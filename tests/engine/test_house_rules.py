"""The house rules of real records (docs/rules.md §9: ``identical_cards``, formula scoring,
teams), over simulated games: each is verified with the simulator's own scores, and each
changes exactly what it says it changes."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.engine import verify
from replay.engine.simulate import simulate_game

SEEDS = st.integers(min_value=0, max_value=2**32)
FAST = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Two decks and long hands, so that identical cards meet in a trick often enough.
TWO_DECKS: dict[str, Any] = {"deck": "104", "schedule": [[12, "regular"]] * 3}


def _card(play: Any) -> str:
    return play["card"] if isinstance(play, dict) else play[:2]


def _plays(trick: Any) -> list[str]:
    return [_card(p) for p in (trick["plays"] if isinstance(trick, dict) else trick)]


def _verified(record: dict[str, Any]) -> dict[str, Any]:
    report = verify(record).to_dict()
    assert report["verdict"] == "verified", report["findings"][:3]
    assert report["totals"] == record["totals"]
    assert [d["scores"] for d in report["deals"]] == [d["scores"] for d in record["deals"]]
    return report


@FAST
@given(st.sampled_from(["first_wins", "last_wins", "cancel"]), SEEDS)
def test_a_game_under_each_identical_cards_rule_is_verified(rule: str, seed: int) -> None:
    options = {**TWO_DECKS, "identical_cards": rule}
    _verified(simulate_game({"preset": "classic", "options": options}, 4, seed))


@FAST
@given(SEEDS)
def test_last_wins_and_first_wins_differ_only_at_a_trick_with_identical_cards(seed: int) -> None:
    record = simulate_game({"preset": "classic", "options": TWO_DECKS}, 4, seed)
    other = copy.deepcopy(record)
    other["ruleset"]["options"]["identical_cards"] = "last_wins"
    first = verify(record)
    last = verify(other)
    for deal, a, b in zip(record["deals"], first.deals, last.deals, strict=True):
        pairs = zip(a.trick_winners, b.trick_winners, strict=True)
        differ = [t for t, (x, y) in enumerate(pairs) if x != y]
        if differ:  # after the first, the leaders differ and anything may
            plays = _plays(deal["tricks"][differ[0]])
            assert len(set(plays)) < len(plays), "the first trick won otherwise has twins"
    if all(
        len(set(_plays(t))) == len(_plays(t)) for deal in record["deals"] for t in deal["tricks"]
    ):
        assert first.to_dict()["deals"] == last.to_dict()["deals"]


def test_the_simulated_two_deck_games_do_hold_tricks_with_identical_cards() -> None:
    """The two properties above are not vacuous: such tricks come up, and change winners."""
    changed = 0
    for seed in range(6):
        record = simulate_game({"preset": "classic", "options": TWO_DECKS}, 4, seed)
        other = copy.deepcopy(record)
        other["ruleset"]["options"]["identical_cards"] = "last_wins"
        if verify(record).to_dict()["deals"] != verify(other).to_dict()["deals"]:
            changed += 1
    assert changed > 0
