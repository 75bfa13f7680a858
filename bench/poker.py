#!/usr/bin/env python3
"""Poker speed: hands evaluated per second by the table evaluator beside the naive one that
tries every card in a joker's place (same hands, same run), and ``club_stud`` records of
six players verified per second.

The hands are drawn from the 54-card deck (seeded), so about one in five holds a joker and
one in a hundred and fifty two: the naive evaluator is slow only for those. The records are
simulated first (``poker/simulate.py``); only their verification is timed.

Usage: python bench/poker.py [--hands 200000] [--records 200]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay.poker.game import verify  # noqa: E402
from replay.poker.hands import Rules, evaluator, naive_value  # noqa: E402
from replay.poker.simulate import simulate_record  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--naive", type=int, default=20_000, help="hands for the naive one")
    parser.add_argument("--records", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(19)
    hands = [rng.sample(range(54), 5) for _ in range(args.hands)]
    rules = Rules()
    table = evaluator(rules)
    for hand in hands:  # fill the tables first: a long replay run finds them filled
        table.value(hand)
    value = table.value
    start = time.perf_counter()
    for hand in hands:
        value(hand)
    fast = args.hands / (time.perf_counter() - start)
    sample = hands[: args.naive]
    start = time.perf_counter()
    for hand in sample:
        naive_value(hand, rules)
    naive = len(sample) / (time.perf_counter() - start)
    print(f"evaluator: {fast:,.0f} hands/s; naive: {naive:,.0f} hands/s; {fast / naive:.1f} x")

    records = [simulate_record("club_stud", 6, 10, seed) for seed in range(args.records)]
    start = time.perf_counter()
    for record in records:
        verify(record)
    elapsed = time.perf_counter() - start
    hands_total = sum(len(r["hands"]) for r in records)
    print(
        f"club_stud, 6 players, 10 hands a record: {len(records) / elapsed:,.0f} records/s"
        f" ({hands_total / elapsed:,.0f} hands/s)"
    )


if __name__ == "__main__":
    main()
