"""The house rules of real records (docs/rules.md §9: ``identical_cards``, formula scoring,
teams), over simulated games: each is verified with the simulator's own scores, and each
changes exactly what it says it changes."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import verify
from replay.simulate import simulate_game

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


TEAMS = [[0, 2], [1, 3]]


@FAST
@given(st.sampled_from(["oh_hell", "classic", "detsky"]), SEEDS)
def test_a_team_game_is_verified_and_a_team_shares_its_score(preset: str, seed: int) -> None:
    record = simulate_game({"preset": preset, "options": {"teams": TEAMS}}, 4, seed)
    report = _verified(record)
    for deal in report["deals"]:
        for team, mine in zip(TEAMS, deal["teams"], strict=True):
            assert {deal["scores"][s] for s in team} == {mine["score"]}
            assert mine["taken"] == sum(deal["taken"][s] for s in team)
    standings = report["teams"]
    assert [t["total"] for t in standings] == [report["totals"][team[0]] for team in TEAMS]
    best = max(t["total"] for t in standings)
    assert [t["place"] == 1 for t in standings] == [t["total"] == best for t in standings]
    assert sorted(report["winners"]) == sorted(
        s for t in standings if t["place"] == 1 for s in t["seats"]
    )


@FAST
@given(st.sampled_from(["oh_hell", "classic", "joker54"]), SEEDS)
def test_teams_of_one_score_as_players_alone(preset: str, seed: int) -> None:
    record = simulate_game(preset, 4, seed)
    alone = verify(record).to_dict()
    record["ruleset"] = {"preset": preset, "options": {"teams": [[0], [1], [2], [3]]}}
    teamed = verify(record).to_dict()
    assert teamed["verdict"] == alone["verdict"] == "verified"
    assert [{**d, "teams": None} for d in teamed["deals"]] == [
        {**d, "teams": None} for d in alone["deals"]
    ]
    assert "teams" not in alone and "teams" not in alone["deals"][0]


def test_a_fine_is_paid_by_the_whole_team() -> None:
    options = {"teams": TEAMS, "revoke_penalty": 50}
    record = simulate_game({"preset": "joker54", "options": options}, 4, 7, corrupt="revoke")
    report = _verified(record)
    (fine,) = [f for f in report["findings"] if f["code"] == "play.revoke"]
    deal = report["deals"][fine["deal"] - 1]
    team = next(t for t in TEAMS if fine["seat"] in t)
    assert deal["scores"][team[0]] == deal["scores"][team[1]]
    assert fine["severity"] == "penalty"
