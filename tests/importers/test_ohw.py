"""OhHellWeb saved games → raspis/1.

The saved games are written here from simulated Oh Hell games, in the layout the server
writes (docs/importers.md "ohw"): cards as ``{"num", "suit"}``, per-round leaders and
winners, per-player hands, bids, takens, running scores and plays trick by trick.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from importers import ohw
from replay import verify
from replay.simulate import simulate_game
from replay.tricks.rulesets import DEFAULTS

SUITS = "CDSH"
RANKS = "23456789TJQKA"
HOUSE = ("scoring", "formula_made", "formula_missed", "teams", "identical_cards")
#: Whether the engine knows the house rules the server plays (scoring by formula, teams,
#: identical cards): the imported records then verify whole, claimed scores included.
HOUSE_RULES_KNOWN = {"formula_made", "formula_missed", "teams", "identical_cards"} <= set(DEFAULTS)


def card(text: str) -> dict[str, int]:
    return {"num": RANKS.index(text[0]) + 2, "suit": SUITS.index(text[1])}


def winner(plays: list[str], leader: int, trump: str, players: int) -> int:
    led = plays[0][1]
    best = max(
        range(len(plays)),
        key=lambda i: (plays[i][1] == trump, plays[i][1] == led, RANKS.index(plays[i][0])),
    )
    return (leader + best) % players


def score(bid: int, taken: int) -> int:
    d = abs(bid - taken)
    return 10 + bid * bid if d == 0 else -5 * d * (d + 1) // 2


def saved_game(record: dict[str, Any], teams: list[list[int]] | None = None) -> dict[str, Any]:
    """The OhHellWeb file of a simulated game (one deck, no claims)."""
    n = len(record["players"])
    team_of = {s: t for t, members in enumerate(teams or [[*range(n)]]) for s in members}
    players: list[dict[str, Any]] = [
        {"id": f"@{name}", "name": name, "index": i, "team": team_of[i], "human": True,
         "hands": [], "bids": [], "takens": [], "scores": [], "score": 0, "plays": []}
        for i, name in enumerate(record["players"])
    ]  # fmt: skip
    game: dict[str, Any] = {
        "mode": "Oh Hell", "id": 1700000000000,
        "options": {"robots": 0, "D": 1, "teams": teams is not None},
        "rounds": [], "trumps": [], "leaders": [], "winners": [], "claims": [],
        "players": players,
        "teams": [{"number": t, "name": f"Team {t + 1}", "members": m}
                  for t, m in enumerate(teams or [[*range(n)]])],
    }  # fmt: skip
    for deal in record["deals"]:
        dealer = deal["dealer"]
        game["rounds"].append({"dealer": dealer, "handSize": deal["cards"], "isOver": True})
        game["trumps"].append(card(deal["trump_card"]))
        leader, leaders, winners = (dealer + 1) % n, [], []
        plays: list[list[dict[str, int]]] = [[] for _ in range(n)]
        taken = [0] * n
        for stated in deal["tricks"]:
            trick = stated["plays"] if isinstance(stated, dict) else stated
            for k, play in enumerate(trick):
                plays[(leader + k) % n].append(card(play))
            won = winner(trick, leader, deal["trump_card"][1], n)
            leaders.append(leader)
            winners.append(won)
            taken[won] += 1
            leader = won
        game["leaders"].append(leaders)
        game["winners"].append(winners)
        game["claims"].append(-1)
        for i, p in enumerate(players):
            members = teams[team_of[i]] if teams else [i]
            bid = sum(deal["bids"][m] for m in members)
            got = sum(taken[m] for m in members)
            p["hands"].append([card(c) for c in deal["hands"][i]])
            p["bids"].append(deal["bids"][i])
            p["takens"].append(taken[i])
            p["score"] += score(bid, got)
            p["scores"].append(p["score"])
            p["plays"].append(plays[i])
    return game


@pytest.fixture
def simulated() -> dict[str, Any]:
    schedule = [[3, "regular"], [2, "regular"], [1, "regular"], [2, "regular"]]
    options = {"schedule": schedule, "min_players": 2, "max_players": 10}
    return simulate_game({"preset": "oh_hell", "options": options}, 4, 5)


def convert(game: dict[str, Any]) -> ohw.Imported:
    [imported] = ohw.convert(json.dumps(game).encode(), "game.ohw")
    return imported


def without_house_rules(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the ruleset options and claimed scores that need the formula and
    team rules left out: what the engine can check of it alone."""
    record = copy.deepcopy(record)
    for name in HOUSE:
        record["ruleset"]["options"].pop(name, None)
    for deal in record["deals"]:
        for key in ("scores", "running"):
            deal.pop(key)
    record.pop("totals", None)
    return record


def test_a_saved_game_becomes_a_record_whose_play_replays_cleanly(simulated: dict) -> None:
    imported = convert(saved_game(simulated))
    assert imported.findings == ()
    record = imported.record
    assert record is not None
    assert record["players"] == simulated["players"]
    assert record["first_dealer"] == simulated["first_dealer"]
    assert record["meta"]["external_id"] == 1700000000000
    assert record["meta"]["played_at"] == "2023-11-14T22:13:20+00:00"
    options = record["ruleset"]["options"]
    assert options["deck"] == "52"
    assert options["schedule"] == [[3, "regular"], [2, "regular"], [1, "regular"], [2, "regular"]]
    assert (options["scoring"], options["formula_made"]) == ("formula", "10 + bid^2")
    assert options["formula_missed"] == "-5 * d * (d + 1) / 2"
    assert "teams" not in options and "identical_cards" not in options
    for mine, theirs in zip(record["deals"], simulated["deals"], strict=True):
        assert mine["hands"] == theirs["hands"]
        assert [t["plays"] for t in mine["tricks"]] == [
            t["plays"] if isinstance(t, dict) else t for t in theirs["tricks"]
        ]
        assert mine["bids"] == theirs["bids"]
        assert mine["taken"] == theirs["taken"]
    report = verify(without_house_rules(record))
    assert report.verdict == "verified", report.findings


@pytest.mark.skipif(not HOUSE_RULES_KNOWN, reason="the engine does not know the house rules")
@pytest.mark.parametrize("teams", [None, [[0, 2], [1, 3]]])
def test_an_imported_game_verifies_whole_with_its_scores(
    simulated: dict, teams: list[list[int]] | None
) -> None:
    record = convert(saved_game(simulated, teams)).record
    assert record is not None
    report = verify(record)
    assert report.verdict == "verified", report.findings


def test_running_scores_become_deal_scores_and_totals(simulated: dict) -> None:
    game = saved_game(simulated)
    record = convert(game).record
    assert record is not None
    for i, player in enumerate(game["players"]):
        running = [deal["running"][i] for deal in record["deals"]]
        assert running == player["scores"]
        deltas = [deal["scores"][i] for deal in record["deals"]]
        assert sum(deltas) == player["score"] == record["totals"][i]


def test_a_team_game_names_its_teams(simulated: dict) -> None:
    record = convert(saved_game(simulated, teams=[[0, 2], [1, 3]])).record
    assert record is not None
    assert record["ruleset"]["options"]["teams"] == [[0, 2], [1, 3]]
    first = record["deals"][0]["scores"]
    assert first[0] == first[2] and first[1] == first[3]


def test_two_decks_cancel_identical_cards(simulated: dict) -> None:
    game = saved_game(simulated)
    game["options"]["D"] = 2
    options = convert(game).record["ruleset"]["options"]  # type: ignore[index]
    assert (options["deck"], options["identical_cards"]) == ("104", "cancel")


def test_a_claim_keeps_the_complete_tricks_and_names_the_claimer(simulated: dict) -> None:
    game = saved_game(simulated)
    # The first round ends after its first trick: its winner claims, mid-way through the
    # second trick, whose two cards already played are not a complete trick.
    claimer = game["winners"][0][0]
    game["claims"][0] = claimer
    game["leaders"][0] = game["leaders"][0][:1]
    game["winners"][0] = game["winners"][0][:1]
    for k, player in enumerate(game["players"]):
        player["plays"][0] = player["plays"][0][: 2 if k in (claimer, (claimer + 1) % 4) else 1]
    deal = convert(game).record["deals"][0]  # type: ignore[index]
    assert deal["claim"] == {"seat": claimer}
    assert len(deal["tricks"]) == 1


def test_a_kicked_player_ends_the_record_with_a_finding(simulated: dict) -> None:
    game = saved_game(simulated)
    for key in ("bids", "takens", "scores", "plays", "hands"):
        game["players"][2][key] = game["players"][2][key][:2]
    imported = convert(game)
    assert [f.code for f in imported.findings] == ["import.unmapped"]
    assert imported.findings[0].path == "/players/2"
    assert imported.findings[0].seat == 2
    assert imported.record is not None
    assert len(imported.record["deals"]) == 2
    assert "totals" not in imported.record
    assert verify(without_house_rules(imported.record)).verdict == "verified"


def test_an_unfinished_round_is_left_out_with_a_finding(simulated: dict) -> None:
    game = saved_game(simulated)
    game["rounds"][3]["isOver"] = False
    imported = convert(game)
    assert [f.path for f in imported.findings] == ["/rounds/3"]
    assert len(imported.record["deals"]) == 3  # type: ignore[index]


@pytest.mark.parametrize(
    ("change", "code", "path"),
    [
        (lambda g: g.update(mode="Hearts"), "import.unmapped", "/mode"),
        (lambda g: g["options"].update(D=3), "import.unmapped", "/options/D"),
        (lambda g: g.pop("rounds"), "import.source", "/rounds"),
        (lambda g: g["trumps"].__setitem__(1, {"num": 15, "suit": 0}), "import.value", "/trumps/1"),
        (lambda g: g["players"][1]["bids"].__setitem__(0, "one"), "import.source",
         "/players/1/bids/0"),
    ],
)  # fmt: skip
def test_what_cannot_be_read_is_a_finding_at_its_pointer(
    simulated: dict, change: Any, code: str, path: str
) -> None:
    game = saved_game(simulated)
    change(game)
    imported = convert(game)
    assert imported.record is None
    assert [(f.code, f.path) for f in imported.findings] == [(code, path)]


def test_a_file_that_is_not_json_is_refused() -> None:
    [imported] = ohw.convert(b"{not json", "broken.ohw")
    assert imported.record is None
    assert imported.findings[0].code == "import.source"
