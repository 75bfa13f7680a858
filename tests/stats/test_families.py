"""Statistics and ratings of rummy and poker games: their figures come from the rows their
replay wrote, per preset, the rummy's lowest total wins, and a casino's seats are not rated
against one another."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from replay import verify
from replay.poker.simulate import simulate_record
from replay.rummy.simulate import simulate_game
from stats.apis import PlayerStatsApi
from stats.models import ALL, HeadToHead, PlayerStat, Rating
from tests.stats.conftest import conforms, named, player_id

pytestmark = pytest.mark.django_db

Store = Callable[..., list[int]]


def _rummy(seed: int) -> dict[str, Any]:
    return named(simulate_game("joker_rummy", 3, seed))


def test_rummy_figures_add_up_the_replays_of_the_games(store: Store) -> None:
    records = [_rummy(seed) for seed in (1, 2)]
    store(records)
    reports = [verify(r) for r in records]
    row = PlayerStat.objects.get(player_id=player_id("Anna"), ruleset="joker_rummy", period=ALL)
    c = row.counters
    deals = [d for report in reports for d in report.deals]
    assert row.games == 2
    assert row.wins == sum(0 in report.winners for report in reports)
    assert c["rummy:deals"] == len(deals)
    assert c.get("rummy:outs", 0) == sum(d.out == 0 for d in deals)
    openings = [d.openings[0] for d in deals if d.openings and d.openings[0]]
    assert c["rummy:openings"] == len(openings)
    assert c["rummy:opening_worth"] == sum(worth for _, worth in openings)
    assert c["rummy:opening_rounds"] == sum((turn - 1) // 3 + 1 for turn, _ in openings)
    left = [d.points[0] for d in deals if d.out != 0]
    assert c["rummy:left:points"] == 10_000 * sum(left)
    # The lowest total is the best: the best total and the places say so.
    totals = [report.totals[0] for report in reports]
    assert row.best_total == min(totals)


def test_a_rummy_player_s_statistics_answer_their_figures(store: Store) -> None:
    store([_rummy(seed) for seed in (1, 2, 3)])
    anna = player_id("Anna")
    body = APIClient().get(f"/api/players/{anna}/stats/?ruleset=joker_rummy").json()
    conforms(PlayerStatsApi.OutputSerializer, body)
    rummy = body["rummy"]
    assert rummy["deals"] > 0 and body["poker"] is None
    assert rummy["out_rate"] == pytest.approx(rummy["outs"] / rummy["deals"], abs=1e-4)
    assert rummy["opening_worth"] >= 51
    assert body["bidding"]["deals"] == 0  # no trick-taking game among them


def test_head_to_head_of_rummy_counts_the_lower_total_ahead(store: Store) -> None:
    record = _rummy(1)
    store([record])
    totals = verify(record).totals
    a, b = sorted([player_id("Anna"), player_id("Boris")])
    row = HeadToHead.objects.get(player_a=a, player_b=b, ruleset="joker_rummy")
    by_name = dict(zip(["Anna", "Boris"], totals[:2], strict=True))
    a_total = by_name["Anna"] if a == player_id("Anna") else by_name["Boris"]
    b_total = by_name["Boris"] if a == player_id("Anna") else by_name["Anna"]
    assert (row.a_ahead, row.b_ahead) == (int(a_total < b_total), int(b_total < a_total))


def test_rummy_games_are_rated_per_preset(store: Store) -> None:
    store([_rummy(seed) for seed in (1, 2)])
    rated = Rating.objects.filter(ruleset="joker_rummy")
    assert rated.count() == 3 and {r.games for r in rated} == {2}


def test_poker_figures_count_hands_showdowns_and_folds(store: Store) -> None:
    record = named(simulate_record("club_stud", 3, 8, 5))
    store([record])
    report = verify(record)
    anna = player_id("Anna")
    body = APIClient().get(f"/api/players/{anna}/stats/?ruleset=club_stud").json()
    conforms(PlayerStatsApi.OutputSerializer, body)
    poker = body["poker"]
    hands = [h for h in report.hands if h.dealt[0]]
    assert poker["hands"] == len(hands)
    assert poker["net"] == sum(h.net[0] for h in hands)
    assert poker["won"] == sum(0 in h.winners for h in hands)
    assert poker["showdowns"] == sum(h.ranks[0] is not None for h in hands)
    folded = [h.folded[0] for h in hands if h.folded[0] is not None]
    assert sum(f["hands"] for f in poker["folds"]) == len(folded)
    assert body["rummy"] is None
    assert Rating.objects.filter(ruleset="club_stud").count() == 3


def test_casino_seats_are_counted_but_not_rated(store: Store) -> None:
    record = named(simulate_record("joker_poker", 3, 6, 4))
    store([record])
    row = PlayerStat.objects.get(player_id=player_id("Anna"), ruleset="joker_poker", period=ALL)
    assert row.games == 1 and row.counters["poker:hands"] == 6
    assert not Rating.objects.filter(ruleset="joker_poker").exists()


def test_every_family_adds_to_the_sum_over_rulesets(store: Store, two_games: list[int]) -> None:
    store([named(simulate_game("joker_rummy", 3, 1), ["Anna", "Boris", "Carl"])])
    rows = PlayerStat.objects.filter(player_id=player_id("Anna"), period=ALL)
    by_key = {r.ruleset: r for r in rows}
    assert by_key[ALL].games == sum(r.games for key, r in by_key.items() if key != ALL)
    assert by_key[ALL].counters["rummy:deals"] == by_key["joker_rummy"].counters["rummy:deals"]
