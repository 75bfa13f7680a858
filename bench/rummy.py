#!/usr/bin/env python3
"""Rummy replay speed: JSON text → report, in turns per second, against the simplest loop.

Simulates 5-player ``joker_rummy`` games (seeded; the generation is not timed), then times
``json.loads`` + ``verify`` + ``to_dict`` over all of them, and in the same run the simplest
loop over the same texts: ``json.loads``, then every card moved between hand, stock and pile
(and out of the hand for an action) by a dictionary lookup, with no rule or meld checked.
The ratio of the two is the figure to watch (the target is at least 0.3). The first line is
``rummy 5p: N turns/s`` so that tools can read it.

Usage: python bench/rummy.py [--games 1000] [--runs 3]
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay import Verdict, verify  # noqa: E402
from replay.rummy.cards import CODES, KINDS  # noqa: E402
from replay.rummy.simulate import simulate_games  # noqa: E402


def card_of(text: str) -> int:
    return CODES[text.partition("=")[0].upper()]


def move_cards(record: dict[str, Any]) -> int:
    """The floor: the cards of every turn moved, nothing checked. Returns the turns."""
    turns = 0
    for deal in record["deals"]:
        hands = []
        for cards in deal["hands"]:
            hand = [0] * KINDS
            for text in cards:
                hand[card_of(text)] += 1
            hands.append(hand)
        stock = [card_of(text) for text in reversed(deal["stock"])]
        pile: list[int] = []
        for turn in deal["turns"]:
            hand = hands[turn["seat"]]
            draw = turn.get("draw")
            if draw is not None:
                source = draw if isinstance(draw, str) else draw["from"]
                card = (stock if source == "stock" else pile).pop()
                hand[card] += 1
                if not stock:
                    stock, pile = pile[::-1], []
            for action in turn.get("actions", ()):
                kind, body = next(iter(action.items()))
                cards = body if kind == "meld" else body.get("cards", [body.get("card")])
                for text in cards:
                    if text is not None:
                        hand[card_of(text)] -= 1
            discard = turn["discard"]
            for text in discard if isinstance(discard, list) else [discard]:
                card = card_of(text)
                hand[card] -= 1
                pile.append(card)
            turns += 1
    return turns


def timed(texts: list[str], run: Any, runs: int) -> float:
    timings = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        for text in texts:
            run(json.loads(text))
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    records = list(simulate_games("joker_rummy", 5, args.games, seed=2026))
    texts = [json.dumps(r, ensure_ascii=False) for r in records]
    turns = sum(len(d["turns"]) for r in records for d in r["deals"])
    del records
    for text in texts[:20]:
        report = verify(json.loads(text))
        assert report.verdict is Verdict.VERIFIED, report.findings[:3]
    verified = timed(texts, lambda obj: verify(obj).to_dict(), args.runs)
    floor = timed(texts, move_cards, args.runs)
    print(f"rummy 5p: {turns / verified:,.0f} turns/s")
    print(f"cards moved only: {turns / floor:,.0f} turns/s")
    print(f"ratio: {floor / verified:.2f} (target at least 0.30)")
    print(f"{args.games} games, {turns:,} turns, median of {args.runs} runs")


if __name__ == "__main__":
    main()
