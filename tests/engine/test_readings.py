"""Readings of the rules that docs/rules.md settles (decisions 8, 28 and 29): lead demands
and ``later_joker_wins``, a ``suit``-only demand naming the trump's letter, and the deck
``by_players`` gives for any number of players."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replay import preset_ruleset, state_at, verify
from replay.cards import Deck, card_name, read_card


def one_trick(hands: list[list[str]], plays: list[str], **options: Any) -> dict[str, Any]:
    """The report of a one-card joker54 deal (trump clubs: 2C from the stock); Boris leads."""
    record = {
        "format": "raspis/1",
        "ruleset": {"preset": "joker54", "options": {"schedule": [[1, "regular"]], **options}},
        "players": ["Anna", "Boris", "Vera"],
        "deals": [
            {"cards": 1, "hands": hands, "trump_card": "2C", "bids": [0, 0, 0], "tricks": [plays]}
        ],
    }
    return verify(record).to_dict()


@pytest.mark.parametrize(("later_wins", "winner"), [(True, 0), (False, 1)])
def test_a_highest_demand_counts_as_high_for_later_joker_wins(
    later_wins: bool, winner: int
) -> None:
    report = one_trick([["X2"], ["X1"], ["AH"]], ["X1+H", "AH", "X2+"], later_joker_wins=later_wins)
    assert report["findings"] == []
    assert report["deals"][0]["taken"][winner] == 1


@pytest.mark.parametrize("later_wins", [True, False])
def test_a_lowest_demand_never_blocks_a_high_joker(later_wins: bool) -> None:
    report = one_trick([["X2"], ["X1"], ["AH"]], ["X1-H", "AH", "X2+"], later_joker_wins=later_wins)
    assert report["findings"] == []
    assert report["deals"][0]["taken"] == [1, 0, 0]


def test_a_suit_only_demand_may_name_the_trump_by_its_letter() -> None:
    report = one_trick([["3H"], ["X1"], ["AH"]], ["X1+C", "AH", "3H"], lead_highest_suits="suit")
    assert report["findings"] == []
    assert report["deals"][0]["taken"] == [0, 1, 0]


def test_a_suit_only_demand_may_not_name_trumps_as_such() -> None:
    report = one_trick([["3H"], ["X1"], ["AH"]], ["X1+*", "AH", "3H"], lead_highest_suits="suit")
    assert [f["code"] for f in report["findings"]] == ["play.joker"]


def test_a_demand_of_the_trump_by_its_letter_goes_to_the_joker_under_highest_trump() -> None:
    """Named by letter or as "trumps", a demand for trumps is won by the joker (§10.3)."""
    report = one_trick(
        [["3C"], ["X1"], ["AC"]], ["X1+C", "AC", "3C"], joker_highest_suit_winner="highest_trump"
    )
    assert report["findings"] == []
    assert report["deals"][0]["taken"] == [0, 1, 0]


@pytest.mark.parametrize(
    ("players", "deck"),
    [(2, Deck.SHORT), (3, Deck.SHORT), (4, Deck.FULL), (5, Deck.DOUBLE), (6, Deck.DOUBLE)],
)
def test_by_players_reads_the_podkidnoy_series_on_both_sides(players: int, deck: Deck) -> None:
    assert preset_ruleset("podkidnoy").deck_for(players) is deck


@pytest.mark.parametrize(
    ("text", "card"),
    [("КК", "KC"), ("ТТ", "AC"), ("тк", "AC"), ("10Ч", "TH"), ("ДБ", "QD"), ("вп", "JS")],
)
def test_russian_suit_letters_are_read_after_the_rank(text: str, card: str) -> None:
    assert card_name(read_card(text) or -1) == card


def test_a_record_written_in_russian_letters_replays_as_its_latin_twin() -> None:
    russian = {
        "format": "raspis/1",
        "ruleset": {"preset": "classic", "options": {"schedule": [[1, "regular"]]}},
        "players": ["Anna", "Boris", "Vera"],
        "deals": [
            {
                "cards": 1,
                "hands": [["КЧ"], ["ТЧ"], ["6П"]],
                "trump": "П",
                "bids": [1, 0, 1],
                "tricks": [["ТЧ", "6П", "КЧ"]],
            }
        ],
    }
    latin = {
        **russian,
        "deals": [
            {
                **russian["deals"][0],
                "hands": [["KH"], ["AH"], ["6S"]],
                "trump": "S",
                "tricks": [["AH", "6S", "KH"]],
            }
        ],
    }
    assert verify(russian).to_dict() == verify(latin).to_dict()
    assert verify(russian).to_dict()["deals"][0]["taken"] == [0, 0, 1]


def test_null_bids_in_a_deal_without_bidding_are_empty_cells_not_bids() -> None:
    record = {
        "format": "raspis/1",
        "ruleset": {"preset": "classic", "options": {"schedule": [[1, "golden"]]}},
        "players": ["Anna", "Boris", "Vera"],
        "deals": [{"cards": 1, "kind": "golden", "bids": [None, None, None], "taken": [0, 1, 0]}],
    }
    assert verify(record).to_dict()["findings"] == []
    record["deals"][0]["bids"] = [None, 1, None]
    assert [f["code"] for f in verify(record).to_dict()["findings"]] == ["bid.unexpected"]


def test_the_table_places_a_trick_led_out_of_turn_at_the_seats_it_was_counted_from() -> None:
    golden = Path(__file__).resolve().parents[1] / "golden" / "play_leader_out_of_turn.record.json"
    record = json.loads(golden.read_text(encoding="utf-8"))
    state, _ = state_at(record, 1, 2)
    assert state is not None
    assert state["leader"] == 2
    assert [(p["seat"], p["play"]) for p in state["trick_so_far"]] == [
        (2, "8C"),
        (0, "AS"),
        (1, "8H"),
    ]
    assert state["hands"] == [[], [], []]
