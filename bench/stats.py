#!/usr/bin/env python3
"""Statistics speed, in one run on PostgreSQL:

1. the full recompute (``stats_recompute``) of 20,000 stored four-player ``classic`` games;
2. the incremental update (``stats_update_games``, what the Celery task runs) of one new
   game, with 1,000 and with 20,000 games stored: the ratio must stay under 1.5. The two
   states are two databases and the updates take turns between them, so that the load of
   the machine at a given moment weighs on both alike;
3. requests/s and p99 latency of ``GET /api/players/{id}/stats/`` under 32 keep-alive
   connections, next to ``GET /api/bench/row/{id}/`` (one row by primary key through the
   same DRF stack), both served by one gunicorn (gthread, persistent database connections)
   started here: the statistics endpoint should reach 0.8 of the bare one.

The games are real records: a pool of simulated games (cached in ``bench/.cache/``) with
their seats renamed from 200 players and one game every two hours, stored in batches through
``verification.services.store.records_store`` (verification and ``COPY`` of every row, no HTTP). The
databases ``raspis_bench_stats`` and ``raspis_bench_stats_small`` on the server of
``DATABASE_URL`` are dropped and migrated first; ``CELERY_BROKER_URL`` is passed on but no
task is queued (the update is timed where the worker would run it).

The last two lines are ``incremental growth: X`` and ``endpoint ratio: Y``.

Usage: DATABASE_URL=postgres://... CELERY_BROKER_URL=redis://... python bench/stats.py
       [--games 20000] [--small 1000] [--updates 40] [--requests 6000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".cache"
DATABASE = "raspis_bench_stats"
POOL = 300  #: distinct simulated games; seats are renamed for each stored copy
PLAYERS = 200
BATCH = 500
CONNECTIONS = 32


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def database_reset(url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")


def pool() -> list[dict[str, Any]]:
    path = CACHE / f"stats-classic-4p-{POOL}-seed-2027.jsonl"
    if not path.exists():
        from replay.simulate import simulate_games

        print(f"simulating {POOL} games (cached in {path.relative_to(ROOT)}) ...", flush=True)
        CACHE.mkdir(parents=True, exist_ok=True)
        lines = (
            json.dumps(r, ensure_ascii=False) for r in simulate_games("classic", 4, POOL, 2027)
        )
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


class Games:
    """Stored copies of the pool, each at the next two-hour slot, with four of the players."""

    def __init__(self) -> None:
        self.pool = pool()
        self.rng = random.Random(2027)
        self.names = [f"Player {i:03d}" for i in range(PLAYERS)]
        self.start = dt.datetime(2021, 1, 1, 19, 0, tzinfo=dt.UTC)
        self.count = 0

    def next(self) -> Any:
        from verification.services.store import Entry

        value = dict(self.pool[self.count % len(self.pool)])
        value["players"] = self.rng.sample(self.names, 4)
        when = self.start + dt.timedelta(hours=2 * self.count)
        value["meta"] = {"played_at": when.isoformat(), "external_id": f"bench-{self.count}"}
        self.count += 1
        return Entry(json.dumps(value, ensure_ascii=False), value)

    def store(self, n: int) -> list[int]:
        from verification.services.store import records_store

        ids: list[int] = []
        while n > 0:
            size = min(n, BATCH)
            outcomes = records_store(
                entries=[self.next() for _ in range(size)], uploaded_by=None, visibility="public"
            )
            ids.extend(o.game_id for o in outcomes if o.game_id is not None)
            n -= size
        return ids


# -- the load ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(port: int, path: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer {path}")


def load(port: int, paths: list[str], requests: int) -> tuple[float, float]:
    """Requests/s and p99 seconds of ``requests`` GETs over CONNECTIONS keep-alive clients."""
    latencies: list[float] = []
    lock = threading.Lock()
    per_client = requests // CONNECTIONS

    def client(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        headers = {"Accept": "application/json", "Connection": "keep-alive"}
        for i in range(per_client):
            path = paths[(k * per_client + i) % len(paths)]
            start = time.perf_counter()
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"{path}: {response.status}")
            mine.append(time.perf_counter() - start)
        conn.close()
        with lock:
            latencies.extend(mine)

    start = time.perf_counter()
    with ThreadPoolExecutor(CONNECTIONS) as executor:
        list(executor.map(client, range(CONNECTIONS)))
    elapsed = time.perf_counter() - start
    latencies.sort()
    return len(latencies) / elapsed, latencies[int(0.99 * (len(latencies) - 1))]


def endpoints(env: dict[str, str], player_ids: list[int], requests: int) -> tuple[float, float]:
    port = free_port()
    log = open(CACHE / "stats-gunicorn.log", "w")  # noqa: SIM115 - open for the child's lifetime
    server = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}",
            "-k", "gthread", "-w", "2", "--threads", "8", "--keep-alive", "30",
        ],
        cwd=ROOT,
        env={**env, "DB_CONN_MAX_AGE": "600", "RASPIS_BENCH": "true"},
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    stats_paths = [f"/api/players/{p}/stats/" for p in player_ids]
    row_paths = [f"/api/bench/row/{p}/" for p in player_ids]
    results: dict[str, list[tuple[float, float]]] = {"stats": [], "row": []}
    try:
        wait_for(port, row_paths[0], 30)
        load(port, stats_paths + row_paths, 2 * CONNECTIONS * 20)  # warm every connection
        for _ in range(2):  # alternate, so that neither gets the quieter moment
            results["row"].append(load(port, row_paths, requests))
            results["stats"].append(load(port, stats_paths, requests))
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    row = max(results["row"])
    stats = max(results["stats"])
    print(f"bare row endpoint:   {row[0]:7.0f} requests/s, p99 {row[1] * 1000:6.1f} ms")
    print(f"player stats:        {stats[0]:7.0f} requests/s, p99 {stats[1] * 1000:6.1f} ms")
    return stats[0], row[0]


def use(name: str) -> None:
    """Point Django's connection at another database (it reconnects on the next query)."""
    from django.db import connections

    connection = connections["default"]
    connection.close()
    connection.settings_dict["NAME"] = name


def build(name: str, games: Games, count: int) -> float:
    """Store ``count`` games in database ``name`` and recompute; the recompute's seconds."""
    from stats.services import stats_recompute

    use(name)
    start = time.perf_counter()
    games.store(count)
    print(f"stored {count} games in {time.perf_counter() - start:.1f} s", flush=True)
    start = time.perf_counter()
    summary = stats_recompute()
    took = time.perf_counter() - start
    print(f"full recompute, {summary.games} games: {took:.1f} s", flush=True)
    return took


def incremental(stores: dict[str, Games], updates: int) -> dict[str, float]:
    """Median seconds of ``stats_update_games`` for one new (latest) game, per database.

    The databases take turns, game by game, so that a busy moment of the machine weighs
    on both alike.
    """
    from stats.services import stats_update_games

    timings: dict[str, list[float]] = {name: [] for name in stores}
    for _ in range(updates + 5):
        for name, games in stores.items():
            use(name)
            (game_id,) = games.store(1)
            start = time.perf_counter()
            assert stats_update_games(game_ids=[game_id]) == 1
            timings[name].append(time.perf_counter() - start)
    return {name: statistics.median(times[5:]) for name, times in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--updates", type=int, default=40)
    parser.add_argument("--requests", type=int, default=6_400)
    args = parser.parse_args()
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL server")
    small_db, large_db = f"{DATABASE}_small", DATABASE
    for name in (small_db, large_db):
        database_reset(database_url, name)
    env = {
        **os.environ,
        "DATABASE_URL": with_database(database_url, large_db),
        "CELERY_QUEUE": "raspis-bench-stats",
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(40),
        "DJANGO_DEBUG": "false",
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    from games.models import Player
    from games.signals import game_changed, game_verified

    for name in (small_db, large_db):
        use(name)
        call_command("migrate", verbosity=0)
    # Nothing is queued: the update is timed here, where a worker would run it.
    game_verified.disconnect(dispatch_uid="stats.games_verified")
    game_changed.disconnect(dispatch_uid="stats.games_changed")

    stores = {small_db: Games(), large_db: Games()}
    build(small_db, stores[small_db], args.small)
    build(large_db, stores[large_db], args.games)
    medians = incremental(stores, args.updates)
    for name, games in stores.items():
        print(
            f"incremental, {games.count} games stored: {medians[name] * 1000:.1f} ms a game",
            flush=True,
        )

    use(large_db)
    player_ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    stats_rps, row_rps = endpoints(env, player_ids, args.requests)
    print(f"incremental growth: {medians[large_db] / medians[small_db]:.2f}")
    print(f"endpoint ratio: {stats_rps / row_rps:.2f}")


if __name__ == "__main__":
    main()
