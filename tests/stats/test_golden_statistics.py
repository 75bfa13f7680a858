"""Statistics of two hand-made games (``conftest.GAME_1``, ``GAME_2``), computed by hand.

Game 1 (seats Anna, Boris, Vera; point value 1), per seat: bid/taken/score per deal
    Anna  1/1 +10 (joker 7S high, wins the trick; last bidder), 1/0 −10      total  0, 2nd
    Boris 1/0 −10,  0/2 +2 (over; last bidder)                               total −8, 3rd
    Vera  0/0 +5,   0/0 +5                                                   total 10, 1st
    Settlement: Anna pays (10 − 0) × 1 = 10, Boris (10 + 8) × 1 = 18: Vera +28.
Game 2 (seats Boris, Anna, Vera; point value 2)
    Boris 1/1 +10,  0/0 +5 (last bidder)                                     total 15, 1st=
    Anna  0/0 +5,   1/1 +10                                                  total 15, 1st=
    Vera  1/0 −10 (last bidder), 0/1 +1 (over)                               total −9, 3rd
    Settlement: Vera pays (15 + 9) × 2 = 48, split between the two winners: +24 each.

Anna:  games 2, wins 1 (shared 1), places 1st and 2nd, totals 0 + 15 → average 7.5, best
       15, balance −10 + 24 = 14. Bids 4: exact 3 (1/1, 0/0, 1/1), under 1 (1/0): bid −
       taken 0 ×3, +1 ×1; passes 1 made 1; 1 card 2/2 exact, 2 cards 1/2; last bidder under
       the hook once (made). Points 10 − 10 + 5 + 10 = 15 over 4 deals → 3.75 a deal; won
       25, all from made bids → share 1.0. Jokers: 1 deal, 1 held, 1 high, 1 trick won.
Boris: wins 1 (shared), places 3rd and 1st, totals −8 + 15 = 7 → 3.5, best 15, balance
       −18 + 24 = 6. Bids 1/0 under, 0/2 over, 1/1, 0/0: exact 2, over 1, under 1, bid −
       taken +1, −2, 0, 0; passes 2 made 1; hook deals 2 (0/2 missed, 0/0 made). Points
       −10 + 2 + 10 + 5 = 7; won 17, from made bids 15 → 15/17 = 0.8824.
Vera:  wins 1 (alone), places 1st and 3rd, totals 10 − 9 = 1 → 0.5, best 10, balance
       28 − 48 = −20. Bids 0/0, 0/0, 1/0, 0/1: exact 2, under 1, over 1; passes 3 made 2;
       hook 1 (1/0, missed). Points 5 + 5 − 10 + 1 = 1; won 11, made 10 → 0.9091.
Anna v Boris: 2 games, Anna ahead once (0 > −8), one tie (15 = 15); difference 8 + 0 = 8.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Player
from stats import selectors
from stats.models import ALL, HeadToHead, PlayerStat

pytestmark = pytest.mark.django_db


def figures(name: str, **params: Any) -> dict[str, Any]:
    player = Player.objects.get(name=name)
    rows = selectors.player_stat_rows(player_id=player.pk, **params).rows
    return selectors.player_stats_data(
        player_id=player.pk,
        ruleset=params.get("ruleset", ""),
        since=params.get("since", ""),
        until=params.get("until", ""),
        rows=rows,
    )


def test_results_places_totals_and_settlement_are_as_computed_by_hand(two_games: list[int]) -> None:
    expected = {
        "Anna": (1, 1, [(1, 1), (2, 1)], 7.5, 15, 14),
        "Boris": (1, 1, [(1, 1), (3, 1)], 3.5, 15, 6),
        "Vera": (1, 0, [(1, 1), (3, 1)], 0.5, 10, -20),
    }
    for name, (wins, shared, places, average, best, balance) in expected.items():
        f = figures(name)
        assert f["games"] == 2
        assert (f["wins"], f["shared_wins"], f["win_rate"]) == (wins, shared, 0.5 * wins)
        assert [(p["place"], p["games"]) for p in f["places"]] == places
        assert (f["average_total"], f["best_total"]) == (None, None)  # no totals over all keys
        within = figures(name, ruleset="classic")
        assert (within["average_total"], within["best_total"]) == (average, best)
        assert f["settlement"] == {"games": 2, "balance": balance}


def test_bidding_figures_are_as_computed_by_hand(two_games: list[int]) -> None:
    anna = figures("Anna")["bidding"]
    assert (anna["deals"], anna["exact"], anna["over"], anna["under"]) == (4, 3, 0, 1)
    assert anna["exact_rate"] == 0.75
    assert anna["difference"] == [{"difference": 0, "deals": 3}, {"difference": 1, "deals": 1}]
    assert anna["passes"] == {"tried": 1, "made": 1}
    assert anna["hook"] == {"deals": 1, "made": 1}
    assert anna["blind"] == {"tried": 0, "made": 0}
    assert anna["by_cards"] == [
        {"cards": 1, "deals": 2, "exact": 2, "exact_rate": 1.0},
        {"cards": 2, "deals": 2, "exact": 1, "exact_rate": 0.5},
    ]
    assert anna["by_kind"] == [{"kind": "regular", "deals": 4, "exact": 3, "exact_rate": 0.75}]

    boris = figures("Boris")["bidding"]
    assert (boris["exact"], boris["over"], boris["under"]) == (2, 1, 1)
    assert [(d["difference"], d["deals"]) for d in boris["difference"]] == [(-2, 1), (0, 2), (1, 1)]
    assert boris["passes"] == {"tried": 2, "made": 1}
    assert boris["hook"] == {"deals": 2, "made": 1}

    vera = figures("Vera")["bidding"]
    assert (vera["exact"], vera["over"], vera["under"]) == (2, 1, 1)
    assert vera["passes"] == {"tried": 3, "made": 2}
    assert vera["hook"] == {"deals": 1, "made": 0}


def test_points_and_jokers_are_as_computed_by_hand(two_games: list[int]) -> None:
    anna = figures("Anna")
    assert anna["points"] == {
        "deals": 4,
        "points": 15,
        "per_deal": 3.75,
        "from_made_bids": 25,
        "made_bids_share": 1.0,
        "by_kind": [{"kind": "regular", "deals": 4, "points": 15, "per_deal": 3.75}],
    }
    assert anna["jokers"] == {
        "deals_held": 1,
        "held": 1,
        "declarations": {
            "high": 1,
            "low": 0,
            "plain": 0,
            "lead_highest": 0,
            "lead_lowest": 0,
            "other": 0,
        },
        "demands": 0,
        "tricks_won": 1,
    }
    assert figures("Boris")["points"]["made_bids_share"] == round(15 / 17, 4)
    assert figures("Vera")["points"]["made_bids_share"] == round(10 / 11, 4)
    assert figures("Vera")["jokers"]["held"] == 0
    assert anna["findings"] == []


def test_months_split_the_same_figures(two_games: list[int]) -> None:
    anna = figures("Anna", ruleset="classic")
    assert [(m["month"], m["games"], m["wins"], m["average_total"]) for m in anna["months"]] == [
        ("2025-03", 1, 0, 0),
        ("2025-04", 1, 1, 15),
    ]
    april = figures("Anna", ruleset="classic", since="2025-04", until="2025-04")
    assert (april["games"], april["wins"], april["best_total"]) == (1, 1, 15)
    assert april["settlement"]["balance"] == 24
    march = figures("Anna", ruleset="classic", until="2025-03")
    assert (march["games"], march["average_total"], march["bidding"]["exact"]) == (1, 0, 1)


def test_the_ruleset_key_of_an_inline_ruleset_is_its_preset(two_games: list[int]) -> None:
    anna = Player.objects.get(name="Anna")
    keys = set(PlayerStat.objects.filter(player=anna).values_list("ruleset", flat=True))
    assert keys == {"classic", ALL}
    assert figures("Anna", ruleset="classic")["games"] == 2


def test_head_to_head_counts_who_finished_ahead(two_games: list[int]) -> None:
    anna, boris = (Player.objects.get(name=n) for n in ("Anna", "Boris"))
    rows = selectors.versus_rows(a=anna.pk, b=boris.pk)
    data = selectors.versus_data(a=anna.pk, b=boris.pk, rows=rows)
    assert (data["games"], data["ahead"], data["behind"], data["ties"]) == (2, 1, 0, 1)
    assert (data["difference"], data["average_difference"]) == (8, 4.0)
    mirrored = selectors.versus_data(a=boris.pk, b=anna.pk, rows=rows)
    assert (mirrored["ahead"], mirrored["behind"], mirrored["difference"]) == (0, 1, -8)
    assert HeadToHead.objects.count() == 3 * 2  # three pairs, in classic and overall
