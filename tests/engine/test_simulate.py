"""The game simulator: every preset and player count makes legal games the verifier accepts,
deterministically, in the forms docs/format.md allows; impossible requests raise ValueError.

The record's own invariants (cards conserved, the winner leads next) are property tests in
``test_properties.py``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from replay import PRESETS, preset_ruleset, verify
from replay.simulate import CORRUPTIONS, simulate_game, simulate_games

CASES = [
    (preset, players)
    for preset in PRESETS
    for players in range(preset_ruleset(preset).min_players, preset_ruleset(preset).max_players + 1)
]


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_every_preset_and_player_count_makes_verified_games(preset: str, players: int) -> None:
    record = simulate_game(preset, players, seed=players * 101)
    report = verify(record)
    out = report.to_dict()
    assert out["verdict"] == "verified", out["findings"][:3]
    assert [f["severity"] for f in out["findings"]] == []
    assert out["audit"] == "full"
    assert out["totals"] == record["totals"]
    for claimed, recomputed in zip(record["deals"], out["deals"], strict=True):
        assert recomputed["taken"] == claimed["taken"]
        assert recomputed["scores"] == claimed["scores"]
        assert recomputed["running"] == claimed["running"]


@pytest.mark.parametrize(("preset", "players"), [("classic", 4), ("podkidnoy", 5), ("joker54", 2)])
def test_a_sheet_record_is_audited_from_the_sheet_and_verified(preset: str, players: int) -> None:
    record = simulate_game(preset, players, seed=7, sheet=True)
    assert all("tricks" not in d and "hands" not in d for d in record["deals"])
    out = verify(record).to_dict()
    assert (out["verdict"], out["audit"]) == ("verified", "sheet")
    assert out["totals"] == record["totals"]


def test_the_same_arguments_make_the_same_record() -> None:
    for corrupt in (None, "revoke", "three_passes"):
        first = simulate_game("classic", 4, 1234, corrupt=corrupt)
        again = simulate_game("classic", 4, 1234, corrupt=corrupt)
        assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)
    assert simulate_game("classic", 4, 1235) != simulate_game("classic", 4, 1234)


def test_simulate_games_derives_one_seed_per_game_deterministically() -> None:
    games = list(simulate_games("detsky", 3, 3, seed=9))
    assert len(games) == 3
    assert len({json.dumps(g, sort_keys=True) for g in games}) == 3
    assert games == list(simulate_games("detsky", 3, 3, seed=9))
    assert all(verify(g).verdict == "verified" for g in games)


def test_the_record_is_json_with_plain_numbers_and_simulator_meta() -> None:
    record = simulate_game("classic", 4, 3)  # specials ×3/2: some scores are x.5
    assert json.loads(json.dumps(record)) == record
    scores = [s for d in record["deals"] for s in d["scores"]]
    assert all(type(s) is int or (type(s) is float and not s.is_integer()) for s in scores)
    assert any(type(s) is float for s in scores)
    meta = record["meta"]
    assert meta["source"] == "simulator" and "corruption" not in meta
    assert meta["played_at"][:2] == "20" and "T" in meta["played_at"]
    assert all("dealer" in d for d in record["deals"])


def test_games_use_the_forms_the_format_allows() -> None:
    """Joker declarations, object plays, stated leaders, blind bids: all appear somewhere."""
    seen: Counter[str] = Counter()
    for preset, players in [("joker54", 4), ("detsky", 3), ("classic", 5), ("rotating", 3)]:
        for record in simulate_games(preset, players, 3, seed=5):
            for deal in record["deals"]:
                seen.update("blind" for b in deal.get("bids", []) if isinstance(b, dict))
                for trick in deal["tricks"]:
                    if isinstance(trick, dict):
                        seen["leader"] += 1
                        trick = trick["plays"]
                    for play in trick:
                        if isinstance(play, dict):
                            seen["object"] += 1
                        elif len(play) > 2:
                            seen[play[2]] += 1
    assert {"blind", "leader", "object", "+", "-", "="} <= set(seen)


def test_podkidnoy_deals_name_the_declarer_and_the_calls() -> None:
    record = simulate_game("podkidnoy", 4, 11)
    kinds = [d.get("kind", "regular") for d in record["deals"]]
    assert kinds == ["regular"] * 9 + ["dark", "no_trump", "golden", "misere"]
    for deal in record["deals"]:
        if deal.get("kind") in ("golden", "misere"):
            assert "bids" not in deal and "declarer" not in deal
            continue
        bids = deal["bids"]
        assert bids.count(max(bids)) == 1 and bids.index(max(bids)) == deal["declarer"]
        assert "trump" in deal


def test_custom_names_are_used() -> None:
    record = simulate_game("oh_hell", 3, 1, names=["Маша", "Петя", "Оля"])
    assert record["players"] == ["Маша", "Петя", "Оля"]
    assert verify(record).verdict == "verified"


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("classic", 2, 1), {}),  # classic needs 3 to 6 players
        (("no_such_preset", 4, 1), {}),
        ({"preset": "classic", "options": {"deck": "99"}}, {}),
        (("classic", 4, 1), {"corrupt": "no_such_defect"}),
        (("classic", 4, 1), {"names": ["A", "B", "C", "a"]}),
        (("detsky", 3, 1), {"corrupt": "hook"}),  # the hook is off
        (("podkidnoy", 3, 1), {"corrupt": "hook"}),  # bids come from an auction
        (("joker54", 4, 1), {"corrupt": "three_passes"}),
        (("classic", 4, 1), {"corrupt": "dark_pass"}),  # no optional blind bids
        (("oh_hell", 4, 1), {"corrupt": "must_trump"}),  # must_trump is off
        (("oh_hell", 4, 1), {"corrupt": "joker_demand"}),  # no jokers
        (("oh_hell", 4, 1), {"corrupt": "wrong_schedule"}),  # a free schedule
        (("classic", 4, 1), {"corrupt": "revoke", "sheet": True}),  # a sheet has no plays
        (("classic", 4, 1), {"corrupt": "duplicate_card", "sheet": True}),
    ],
)
def test_arguments_that_cannot_make_the_game_raise_value_error(
    args: Any, kwargs: dict[str, Any]
) -> None:
    if isinstance(args, dict):
        args = (args, 4, 1)
    with pytest.raises(ValueError):
        simulate_game(*args, **kwargs)


def test_every_corruption_is_listed_with_its_code() -> None:
    from replay.simulate import CORRUPTION_CODES

    assert set(CORRUPTION_CODES) == set(CORRUPTIONS)


def test_a_revoke_under_a_revoke_penalty_is_fined_and_the_record_stays_verified() -> None:
    record = simulate_game("georgian", 4, 2, corrupt="revoke")
    where = record["meta"]["corruption"]
    out = verify(record).to_dict()
    assert out["verdict"] == "verified"
    (finding,) = out["findings"]
    assert (finding["code"], finding["severity"]) == ("play.revoke", "penalty")
    assert (finding["deal"], finding["trick"], finding["play"], finding["seat"]) == (
        where["deal"],
        where["trick"],
        where["play"],
        where["seat"],
    )


def test_with_claims_a_seat_that_takes_the_rest_claims_it() -> None:
    plain = simulate_game("classic", 4, 7)
    claiming = simulate_game("classic", 4, 7, claims=True)
    assert not any("claim" in deal for deal in plain["deals"])
    claimed = [deal for deal in claiming["deals"] if "claim" in deal]
    assert claimed
    for deal in claimed:
        assert len(deal["tricks"]) < deal["cards"]
        assert len(deal["tricks"]) >= deal["cards"] - 3  # only in a deal's last three tricks
    sheet = simulate_game("classic", 4, 7, claims=True, sheet=True)
    assert not any("claim" in deal for deal in sheet["deals"])
