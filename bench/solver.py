#!/usr/bin/env python3
"""Claim checking speed: the double-dummy solver on the last six tricks of four players.

Simulates four-player ``classic`` and ``joker54`` games (seeded), and from every deal of
nine cards or more takes the position before its sixth trick from the end, every hand
visible; it asks the solver whether the seat to lead can take all six tricks (the question
a claim asks). Since most such claims fail at once, it then deals the same 24 cards again
so that the leader holds the 6, 5 or 4 strongest (jokers, then trumps, then ranks) and the
rest at random: the claims that hold, or nearly, whose every defence must be searched. Per
set it prints how many were answered yes, no and "not known" within the default node
budget, the median and the slowest time, and the most nodes searched. Each answer must come
within a second.

Usage: python bench/solver.py [--games 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay import parse_record, replay  # noqa: E402
from replay.simulate import simulate_games  # noqa: E402
from replay.tricks.solver import DEFAULT_BUDGET, Position, takes_all  # noqa: E402

LAST = 6


def positions(ruleset: str, games: int) -> list[tuple[Position, int]]:
    """(position, seat to lead) before the sixth trick from the end of each long deal."""
    found = []
    for record in simulate_games(ruleset, 4, games, seed=2026):
        parsed, _ = parse_record(record)
        assert parsed is not None
        report = replay(parsed)
        for deal, result in zip(parsed.deals, report.deals, strict=True):
            if deal.cards < LAST + 3 or deal.hands is None or deal.tricks is None:
                continue
            start = deal.cards - LAST
            first = (result.dealer + 1) % 4
            leaders = [first, *result.trick_winners]
            hands = [0] * 4
            for seat, hand in enumerate(deal.hands):
                for card in hand:
                    hands[seat] |= 1 << card
            for t in range(start):
                for k, code in enumerate(deal.tricks[t]):
                    hands[(leaders[t] + k) % 4] &= ~(1 << (code & 63))
            trump = -1 if result.trump is None else result.trump
            position = Position(
                parsed.ruleset, tuple(hands), (0,) * 4, trump, leaders[start], start
            )
            found.append((position, leaders[start]))
    return found


def strength(card: int, position: Position) -> tuple[int, int]:
    jokers = position.ruleset.joker_mask
    if jokers >> card & 1:
        return (3, card)
    return (2 if card // 13 == position.trump else 1, card % 13)


def strong(
    cases: list[tuple[Position, int]], top: int, rng: random.Random
) -> list[tuple[Position, int]]:
    """The same cards dealt again: the leader gets the ``top`` strongest and the rest at
    random, the others six at random each; positions where a claim is hard to refute."""
    built = []
    for position, seat in cases:
        cards = [c for hand in position.hands for c in range(64) if hand >> c & 1]
        cards.sort(key=lambda c: strength(c, position), reverse=True)
        mine, rest = cards[:top], cards[top:]
        rng.shuffle(rest)
        mine += rest[: LAST - top]
        rest = rest[LAST - top :]
        hands = []
        for s in range(4):
            if s == seat:
                hands.append(sum(1 << c for c in mine))
            else:
                hands.append(sum(1 << c for c in rest[:LAST]))
                rest = rest[LAST:]
        built.append((replace(position, hands=tuple(hands)), seat))
    return built


def measure(label: str, cases: list[tuple[Position, int]]) -> None:
    times, nodes, answers = [], [], {True: 0, False: 0, None: 0}
    for position, seat in cases:
        start = time.perf_counter()
        answer = takes_all(position, seat)
        times.append(time.perf_counter() - start)
        nodes.append(answer.nodes)
        answers[answer.takes_all] += 1
    print(
        f"{label}: {len(cases)} positions, yes {answers[True]}, no {answers[False]}, "
        f"not known {answers[None]}; median {statistics.median(times) * 1000:.1f} ms, "
        f"slowest {max(times) * 1000:.1f} ms, most nodes {max(nodes)} (budget {DEFAULT_BUDGET})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    for ruleset in ("classic", "joker54"):
        cases = positions(ruleset, args.games)
        measure(f"{ruleset} 4p, the leader", cases)
        rng = random.Random(2026)
        for top in (6, 5, 4):
            measure(f"{ruleset} 4p, the leader with the {top} strongest", strong(cases, top, rng))


if __name__ == "__main__":
    main()
