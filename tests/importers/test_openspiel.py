"""OpenSpiel's oh_hell → raspis/1: both forms, on the hand-written fixtures (README)."""

from __future__ import annotations

from pathlib import Path

from importers import openspiel
from replay import verify

FIXTURES = Path(__file__).parent / "fixtures"


def imported(name: str) -> openspiel.Imported:
    [game] = openspiel.convert((FIXTURES / name).read_bytes(), name)
    return game


def test_a_playthrough_becomes_a_record_that_verifies() -> None:
    game = imported("openspiel-3p.playthrough.txt")
    assert game.findings == ()
    assert game.record is not None
    deal = game.record["deals"][0]
    assert game.record["first_dealer"] == 0
    assert deal["hands"] == [["AS", "2C"], ["KS", "3D"], ["5H", "7H"]]
    assert deal["trump_card"] == "9H"
    assert deal["bids"] == [1, 1, 1]
    assert deal["tricks"] == [["KS", "5H", "AS"], ["7H", "2C", "3D"]]
    assert deal["scores"] == [0, 0, 2]
    report = verify(game.record)
    assert report.verdict == "verified", report.findings
    assert report.deals[0].taken == [0, 0, 2]


def test_a_serialized_state_with_parameters_becomes_a_record_that_verifies() -> None:
    game = imported("openspiel-4p.state.txt")
    assert game.record is not None
    assert game.record["ruleset"]["options"]["off_bid_penalty"] is True
    assert game.record["meta"]["game"] == "oh_hell(players=4,off_bid_penalty=True)"
    deal = game.record["deals"][0]
    assert deal["bids"] == [0, 0, 1, 1]
    report = verify(game.record)
    assert report.verdict == "verified", report.findings
    assert [float(s) for s in report.deals[0].scores] == [10, -1, -1, -1]


def test_an_unfinished_game_keeps_its_complete_tricks_and_says_so() -> None:
    text = (FIXTURES / "openspiel-4p.state.txt").read_text().rsplit("\n", 3)[0] + "\n"
    [game] = openspiel.convert(text.encode(), "cut.txt")
    assert [f.code for f in game.findings] == ["import.unmapped"]
    assert game.record is not None
    assert game.record["deals"][0]["tricks"] == []
    assert game.record["meta"]["import"]["findings"][0]["code"] == "import.unmapped"


def test_a_deck_no_ruleset_has_is_refused_with_a_finding() -> None:
    text = "[Meta]\nVersion: 1\n[Game]\noh_hell(num_cards_per_suit=9)\n[State]\n1\n0\n"
    [game] = openspiel.convert(text.encode(), "small.txt")
    assert game.record is None
    assert [f.code for f in game.findings] == ["import.unmapped"]


def test_an_action_that_is_no_card_is_located_by_its_line() -> None:
    text = "[Meta]\nVersion: 1\n[Game]\noh_hell()\n[State]\n1\n0\n99\n"
    [game] = openspiel.convert(text.encode(), "bad.txt")
    assert game.record is None
    assert game.findings[0].code == "import.value"
    assert game.findings[0].message.startswith("line 8:")


def test_more_tricks_than_the_deck_allows_are_located_by_their_line() -> None:
    text = "[Meta]\nVersion: 1\n[Game]\noh_hell(players=4)\n[State]\n13\n0\n"
    [game] = openspiel.convert(text.encode(), "many.txt")
    assert game.record is None
    assert game.findings[0].message == "line 6: 13 tricks for 4 players"


def test_a_fixed_number_of_tricks_is_held_to() -> None:
    text = "[Meta]\nVersion: 1\n[Game]\noh_hell(num_tricks_fixed=2)\n[State]\n3\n0\n"
    [game] = openspiel.convert(text.encode(), "fixed.txt")
    assert game.findings[0].message == "line 6: 3 tricks, but num_tricks_fixed=2"


def test_another_game_is_not_oh_hell() -> None:
    [game] = openspiel.convert(b"game: bridge\nHistory() = [1]\n", "bridge.txt")
    assert game.record is None
    assert game.findings[0].code == "import.source"
