#!/usr/bin/env python3
"""Server time of a game's page with its replay, on PostgreSQL: p50 and p99.

The game is a 36-deal four-player ``classic`` record from the simulator, with one revoke
so that the page has a finding to write, stored through the service the API uses
(``verification.services.records.game_store``) in the database ``raspis_bench_pages`` on the
server of ``DATABASE_URL``, which is dropped and migrated first. Each request goes through
Django's whole stack (middleware, session, locale, the view, the templates) in this process,
with DEBUG off and a persistent connection; the time is from the request to the rendered
response, so it leaves out only the network. Pages timed: ``/games/<id>/`` (the first deal's
start), a deep link into the middle of the game, the same in Russian, and the games list.
The target for a game's page is under 100 ms.

The last line is ``game page: p50 X ms, p99 Y ms``.

Usage: DATABASE_URL=postgres://... python bench/pages.py [--requests 200]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "raspis_bench_pages"
WARMUP = 20


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def database_reset(url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200, help="timed requests per page")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL")
    if not url or not url.startswith("postgres"):
        print("set DATABASE_URL to a PostgreSQL server (see the docstring)", file=sys.stderr)
        return 2
    database_reset(url, DATABASE)
    os.environ["DATABASE_URL"] = with_database(url, DATABASE)
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-" + "x" * 40)
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)

    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from replay.simulate import simulate_game
    from verification.services.records import game_store

    call_command("migrate", verbosity=0)
    call_command("compilemessages", "--ignore=.venv", verbosity=0)
    record = simulate_game("classic", 4, 2027, corrupt="revoke")
    assert len(record["deals"]) == 36, len(record["deals"])
    text = json.dumps(record, ensure_ascii=False)
    game = game_store(text=text, value=record, uploaded_by=None, visibility="public").game_id
    pages = {
        "game page": (f"/games/{game}/", "en"),
        "deep link": (f"/games/{game}/?deal=25&trick=5&play=2", "en"),
        "game page, Russian": (f"/games/{game}/", "ru"),
        "games list": ("/games/", "en"),
    }
    results = {}
    for name, (path, language) in pages.items():
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        times = []
        size = 0
        for n in range(WARMUP + args.requests):
            start = time.perf_counter()
            response = client.get(path)
            elapsed = time.perf_counter() - start
            assert response.status_code == 200, (path, response.status_code)
            size = len(response.content)
            if n >= WARMUP:
                times.append(elapsed * 1000)
        results[name] = times
        print(
            f"{name}: {path} ({language}, {size // 1024} KiB): "
            f"p50 {statistics.median(times):.1f} ms, p99 {percentile(times, 0.99):.1f} ms",
            flush=True,
        )
    times = results["game page"]
    print(f"game page: p50 {statistics.median(times):.1f} ms, p99 {percentile(times, 0.99):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
