#!/usr/bin/env python3
"""Replay speed: JSON text → report, in plays per second, against the shared ceiling.

Simulates 1,000 four-player ``classic`` games and 1,000 six-player ``joker54`` games
(seeded), then times ``json.loads`` + ``verify`` + ``to_dict`` over all of them (the
generation is not timed). Then it runs ``../shared/bench/replay_ceiling.py``, the
simplest possible bitmask replay loop, and prints the ratio of our classic figure (and of
the joker54 one) to its "json.loads+decode+verify" figure. The first line is
``classic 4p: N plays/s`` so that tools can read it.

Usage: python bench/replay.py [--games 1000] [--runs 3]
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay import Verdict, verify  # noqa: E402
from replay.simulate import simulate_games  # noqa: E402

CEILING = ROOT.parent / "shared" / "bench" / "replay_ceiling.py"


def plays_in(record: dict) -> int:
    return sum(
        len(t["plays"] if isinstance(t, dict) else t)
        for d in record["deals"]
        for t in d.get("tricks", [])
    )


def measure(ruleset: str, players: int, games: int, runs: int) -> float:
    records = list(simulate_games(ruleset, players, games, seed=2026))
    texts = [json.dumps(r, ensure_ascii=False) for r in records]
    plays = sum(plays_in(r) for r in records)
    # Kept alive, the simulated records made every timed run's garbage collections walk them
    # too, and whether a run met a full collection changed its figure by a fifth.
    del records
    for text in texts[:20]:
        report = verify(json.loads(text))
        assert report.verdict is Verdict.VERIFIED, report.findings[:3]
    timings = []
    for _ in range(runs):
        # Start each run from a collected heap: simulating the games leaves the collector
        # owing a full collection (a pass over every simulated record), which would otherwise
        # fall into a timed run and cost it up to a fifth. The replay's own collections
        # still count.
        gc.collect()
        start = time.perf_counter()
        for text in texts:
            verify(json.loads(text)).to_dict()
        timings.append(time.perf_counter() - start)
    return plays / statistics.median(timings)


def ceiling() -> float | None:
    if not CEILING.exists():
        return None
    out = subprocess.run(
        [sys.executable, str(CEILING), "--games", "1000", "--runs", "3"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    match = re.search(r"json\.loads\+decode\+verify:.*?([\d,]+) plays/s", out)
    return float(match.group(1).replace(",", "")) if match else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    classic = measure("classic", 4, args.games, args.runs)
    print(f"classic 4p: {classic:.0f} plays/s", flush=True)
    joker = measure("joker54", 6, args.games, args.runs)
    print(f"joker54 6p: {joker:.0f} plays/s", flush=True)
    top = ceiling()
    if top is None:
        print(f"ceiling: not found at {CEILING}")
        return
    print(f"ceiling json.loads+decode+verify: {top:,.0f} plays/s")
    print(f"ratio classic/ceiling: {classic / top:.2f} (target 0.50)")
    print(f"ratio joker54/ceiling: {joker / top:.2f}")


if __name__ == "__main__":
    main()
