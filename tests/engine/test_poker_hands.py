"""The joker poker evaluator (docs/poker.md §2): the standard and one-joker tables counted
over every hand, POKER §2's examples, and the tables against the naive evaluator."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from replay.cards import read_card
from replay.poker.hands import (
    Category,
    NaturalBeatsWild,
    Rules,
    category_of,
    evaluator,
    naive_value,
    suit_key,
)

WILD = Rules(five_of_a_kind=True, joker_straight_flush=True)


def cards(text: str) -> list[int]:
    out = [read_card(t) for t in text.split()]
    assert None not in out
    return [c for c in out if c is not None]


def counts(rules: Rules, deck: int) -> dict[str, int]:
    value = evaluator(rules).value
    tally = Counter(v >> 21 for v in map(value, combinations(range(deck), 5)))
    return {str(Category(k)): n for k, n in tally.items()}


def test_every_hand_of_52_cards_counts_as_the_standard_table() -> None:
    assert counts(Rules(), 52) == {
        "royal_flush": 4,
        "straight_flush": 36,
        "four_of_a_kind": 624,
        "full_house": 3744,
        "flush": 5108,
        "straight": 10200,
        "three_of_a_kind": 54912,
        "two_pair": 123552,
        "one_pair": 1098240,
        "high_card": 1302540,
    }


def test_every_hand_of_53_cards_with_a_wild_joker_counts_as_the_one_joker_table() -> None:
    table = counts(WILD, 53)
    assert table == {
        "five_of_a_kind": 13,
        "royal_flush": 24,
        "straight_flush": 180,
        "four_of_a_kind": 3120,
        "full_house": 6552,
        "flush": 7804,
        "straight": 20532,
        "three_of_a_kind": 137280,
        "two_pair": 123552,
        "one_pair": 1268088,
        "high_card": 1302540,
    }
    assert sum(table.values()) == 2869685


def test_the_default_joker_never_completes_a_straight_flush() -> None:
    table = counts(Rules(), 53)
    assert table["royal_flush"] + table["straight_flush"] == 40
    assert table["flush"] == 7804 + 204 - 40


@pytest.mark.parametrize(
    ("hand", "rules", "category", "lineup"),
    [
        ("KS KH X1 9D 4C", Rules(), Category.THREE_OF_A_KIND, "KKK94"),
        ("9S TS JS QS X1", Rules(), Category.FLUSH, "AQJT9"),
        ("9S TS JS QS X1", WILD, Category.STRAIGHT_FLUSH, "KQJT9"),
        ("X1 2C 3D 4H 5S", Rules(), Category.STRAIGHT, "65432"),
        ("AS KS QS 9S X1", Rules(), Category.FLUSH, "AKQJ9"),
        ("AS KS QS JS X1", Rules(), Category.FLUSH, "AKQJT"),
        ("AS KS QS JS X1", WILD, Category.ROYAL_FLUSH, "AKQJT"),
        ("AS 2S 3S 4S X1", Rules(), Category.FLUSH, "AK432"),
        ("AS 2D 3S 4S X1", Rules(), Category.STRAIGHT, "5432A"),
        ("7S 7H 7D 7C X1", Rules(), Category.FIVE_OF_A_KIND, "77777"),
        ("7S 7H 7D 7C X1", Rules(five_of_a_kind=False), Category.FOUR_OF_A_KIND, "7777A"),
        ("AS AH AD AC X1", Rules(five_of_a_kind=False), Category.FOUR_OF_A_KIND, "AAAAK"),
        ("7S 7H 7D X1 X2", Rules(), Category.FIVE_OF_A_KIND, "77777"),
        ("AS 5D 7C 9H X1", Rules(), Category.ONE_PAIR, "AA975"),
        ("AS 5D 7C X2 X1", Rules(), Category.THREE_OF_A_KIND, "AAA75"),
        ("9S 9D 5C 5H X1", Rules(), Category.FULL_HOUSE, "99955"),
    ],
)
def test_poker_2_examples(hand: str, rules: Rules, category: Category, lineup: str) -> None:
    made = evaluator(rules).made(cards(hand))
    assert made.category is category
    assert "".join("23456789TJQKA"[r] for r in made.lineup) == lineup
    assert category_of(evaluator(rules).value(cards(hand))) is category


def test_a_natural_hand_beats_the_same_hand_made_with_a_joker() -> None:
    wild, natural = cards("KS KH X1 9D 4C"), cards("KD KC KS 9H 4D")
    for mode, natural_wins in ((NaturalBeatsWild.TIE, True), (NaturalBeatsWild.OFF, False)):
        value = evaluator(Rules(natural_beats_wild=mode)).value
        assert (value(natural) > value(wild)) is natural_wins
        assert value(natural) >= value(wild)
    # Under ``category`` a natural three of twos beats three kings made with a joker.
    low = cards("2S 2H 2D 9H 4D")
    tie, category = (
        evaluator(Rules(natural_beats_wild=m)).value
        for m in (NaturalBeatsWild.TIE, NaturalBeatsWild.CATEGORY)
    )
    assert tie(wild) > tie(low)
    assert category(low) > category(wild)


def test_suits_break_ties_from_the_biggest_group() -> None:
    ev = evaluator(Rules())
    spades, hearts = cards("KS KC 9D 5H 3C"), cards("KH KD 9S 5S 3D")
    assert ev.value(spades) == ev.value(hearts)
    key = {
        h: suit_key(cards(h), ev.made(cards(h)), "CDHS")
        for h in ("KS KC 9D 5H 3C", "KH KD 9S 5S 3D")
    }
    assert key["KS KC 9D 5H 3C"] > key["KH KD 9S 5S 3D"]
    wheel = cards("AS 2D 3S 4S X1")
    assert suit_key(wheel, ev.made(wheel), "CDHS") == 0b000_100_100_010_100


def test_the_tables_agree_with_trying_every_card_for_the_joker() -> None:
    rng = random.Random(19)
    for rules in (
        Rules(),
        WILD,
        Rules(five_of_a_kind=False, natural_beats_wild=NaturalBeatsWild.CATEGORY),
    ):
        ev = evaluator(rules)
        hands = [rng.sample(range(54), 5) for _ in range(1500)]
        hands += [[*rng.sample(range(52), 4), 52] for _ in range(500)]
        hands += [[s * 13 + r for r in (8, 9, 10, 11)] + [53] for s in range(4)]
        hands += [[12 + 13 * s for s in range(4)] + [52], [0, 13, 26, 52, 53]]
        for hand in hands:
            assert ev.value(hand) == naive_value(hand, rules), hand
