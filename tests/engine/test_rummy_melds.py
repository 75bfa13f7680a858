"""Melds and cards of the rummy (docs/rummy.md "Melds", "Cards")."""

from __future__ import annotations

import pytest

from replay.rummy.cards import JOKER, read_card, read_entry
from replay.rummy.melds import Kind, classify, value


def cards(*codes: str) -> tuple[list[int], list[int | None]]:
    naturals: list[int] = []
    stands: list[int | None] = []
    for code in codes:
        entry = read_entry(code)
        assert entry is not None, code
        if entry[0] == JOKER:
            stands.append(entry[1])
        else:
            naturals.append(entry[0])
    return naturals, stands


@pytest.mark.parametrize(
    ("codes", "kind", "worth"),
    [
        (("AS", "2S", "3S"), Kind.RUN, 5),  # the ace below the 2 counts 0
        (("QH", "KH", "AH"), Kind.RUN, 31),  # above the king, 11
        (("KD", "AD", "2D"), None, 0),  # no run turns the corner
        (("9C", "10C", "JC", "X1=QC"), Kind.RUN, 39),
        (("9C", "JC", "X=TC"), Kind.RUN, 29),  # a joker fills a gap
        (("9C", "JC", "X"), None, 0),  # a run's joker needs its card
        (("7S", "7S", "7H"), None, 0),  # twins are never in one set
        (("7S", "7C", "7H", "7D"), Kind.SET, 28),
        (("7S", "7C", "7H", "7D", "X"), None, 0),  # a set holds four at most
        (("8S", "8H", "X1=8S"), None, 0),  # a designation in a suit the set has
        (("8S", "8H", "X1=8C"), Kind.SET, 24),
        (("8S", "X", "X"), Kind.SET, 24),  # jokers with one natural card
        (("X", "X", "X"), None, 0),  # no natural card
        (("5S", "6S"), None, 0),  # three cards at least
        (("2S", "3C", "4S"), None, 0),  # one suit in a run
    ],
)
def test_melds(codes: tuple[str, ...], kind: Kind | None, worth: int) -> None:
    naturals, stands = cards(*codes)
    found = classify(naturals, stands, None)
    assert found is kind
    assert value(naturals, stands, found, 0) == worth


def test_the_whole_ladder_is_one_run_with_both_aces() -> None:
    ladder = ["AS", *(r + "S" for r in "23456789TJQK"), "AS"]
    naturals, stands = cards(*ladder)
    assert classify(naturals, stands, None) is Kind.RUN
    assert classify(*cards(*ladder, "2S"), None) is None  # the complete run takes no more
    assert value(naturals, stands, Kind.RUN, 1) == 1 + sum(range(2, 10)) + 40 + 11


def test_the_single_ace_beside_two_to_king_is_high() -> None:
    naturals, stands = cards(*(r + "H" for r in "23456789TJQKA"))
    assert value(naturals, stands, Kind.RUN, 0) == sum(range(2, 10)) + 40 + 11


def test_max_jokers_per_meld() -> None:
    naturals, stands = cards("5S", "X=6S", "X=7S")
    assert classify(naturals, stands, 2) is Kind.RUN
    assert classify(naturals, stands, 1) is None


@pytest.mark.parametrize(
    ("text", "card"),
    [("TD", 2 * 13 + 8), ("10б", 2 * 13 + 8), ("x2", JOKER), ("X4", JOKER), ("ZZ", None)],
)
def test_card_spellings(text: str, card: int | None) -> None:
    assert read_card(text) == card


def test_designations_only_on_jokers() -> None:
    assert read_entry("X1=5C") == (JOKER, 1 * 13 + 3)
    assert read_entry("5C=6C") is None
    assert read_entry("X1=X2") is None
