"""Properties of the rummy's replay over simulated games (docs/rummy.md "The simulator")."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from replay import Verdict, verify
from replay.rummy import game
from replay.rummy.cards import JOKER, KINDS
from replay.rummy.corrupt import CORRUPTIONS
from replay.rummy.rulesets import resolve
from replay.rummy.simulate import simulate_game

GAMES = st.one_of(
    st.tuples(st.just("joker_rummy"), st.integers(2, 7)),
    st.tuples(st.just("joker_rummy_3decks"), st.integers(8, 11)),
)
SEEDS = st.integers(0, 2**32)


def deck(preset: str) -> list[int]:
    rules = resolve(preset)
    assert not isinstance(rules, str)
    counts = [rules.options["decks"]] * KINDS
    counts[JOKER] = rules.options["jokers"]
    return counts


@settings(max_examples=6, deadline=None)
@given(GAMES, SEEDS)
def test_cards_are_conserved_at_every_turn(game_of: tuple[str, int], seed: int) -> None:
    preset, players = game_of
    record = simulate_game(preset, players, seed)
    want = deck(preset)
    turns = 0

    def count(state: Any) -> None:
        nonlocal turns
        turns += 1
        assert game.census(state) == want

    game.verify(record, observe=count)
    assert turns == sum(len(d["turns"]) for d in record["deals"])


@settings(max_examples=12, deadline=None)
@given(GAMES, SEEDS)
def test_a_legal_game_verifies_with_the_simulators_totals(
    game_of: tuple[str, int], seed: int
) -> None:
    preset, players = game_of
    record = simulate_game(preset, players, seed)
    report = verify(record).to_dict()
    assert report["verdict"] == "verified"
    assert report["findings"] == []
    assert report["totals"] == record["totals"]
    assert [d["points"] for d in report["deals"]] == [d["points"] for d in record["deals"]]
    assert [d["left"] for d in report["deals"]] == [d["left"] for d in record["deals"]]


@settings(max_examples=6, deadline=None)
@given(st.integers(2, 7), SEEDS)
def test_a_sheet_of_a_legal_game_verifies(players: int, seed: int) -> None:
    record = simulate_game("joker_rummy", players, seed, sheet=True)
    report = verify(record).to_dict()
    assert (report["verdict"], report["audit"], report["findings"]) == ("verified", "sheet", [])
    assert report["totals"] == record["totals"]


@settings(max_examples=2 * len(CORRUPTIONS), deadline=None)
@given(st.sampled_from(CORRUPTIONS), GAMES, SEEDS)
def test_each_corruption_is_found_at_its_place(
    mode: str, game_of: tuple[str, int], seed: int
) -> None:
    preset, players = game_of
    record = simulate_game(preset, players, seed, corrupt_mode=mode)
    where = record["meta"]["corruption"]
    report = verify(record).to_dict()
    first = report["findings"][0]
    assert {k: first[k] for k in ("code", "deal", "turn", "action", "seat")} == where
    assert report["verdict"] != "verified" or first["severity"] == "warning"


def test_every_player_count_of_both_presets_plays_to_the_end() -> None:
    for preset, counts in (("joker_rummy", range(2, 8)), ("joker_rummy_3decks", range(8, 12))):
        for players in counts:
            record = simulate_game(preset, players, players)
            assert len(record["deals"]) == players
            assert all(d["out"] is not None for d in record["deals"])


def test_the_bots_meld_lay_off_and_take_jokers_back() -> None:
    kinds: set[str] = set()
    for seed in range(6):
        for deal in simulate_game("joker_rummy", 4, seed)["deals"]:
            for turn in deal["turns"]:
                kinds.update(next(iter(a)) for a in turn.get("actions", []))
    assert {"meld", "lay_off", "replace_joker"} <= kinds


def test_a_bot_opens_only_with_what_it_can_lay_and_keep_a_card_to_discard() -> None:
    """A found case: nine players, three decks, a hand whose melds reach 51 only with one
    that would leave no card to discard; the bot laid the rest, worth 50, as its opening."""
    record = simulate_game("joker_rummy_3decks", 9, 4971883)
    assert verify(record).verdict is Verdict.VERIFIED
