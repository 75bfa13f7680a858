#!/usr/bin/env python3
"""Ingest speed: games per second from ``POST /api/uploads/`` until the upload is done.

Uploads a JSON Lines file of 2,000 simulated four-player ``classic`` games (seeded; cached
in ``bench/.cache/`` since simulating them takes a minute) to a real server with one Celery
worker process (solo pool; ``--processes N`` runs a prefork worker with N processes
instead, for comparison), on PostgreSQL, and times the whole pipeline: the
request, the split into items, and every batch's verification and storage. The server and
worker are started here on a free loopback port, against their own database (``--database``,
``raspis_bench`` unless told; dropped and migrated first) on the server of ``DATABASE_URL``;
``CELERY_BROKER_URL`` is the broker, used through the queue ``raspis-bench`` so that no other
worker takes the tasks.

Before each upload it times the engine alone on the same records, in this process: each
line read by ``record_json`` and verified, with no database. That is the ceiling of the
pipeline, which does that work and more on one core; measured beside each upload, it says
how much of a change in the ingest figure is the machine's.

It also prints when the statistics count every game: the same worker updates them after the
upload's batches, so that is when the leaderboards show the upload; it is not part of the
figure. The last line is ``ingest: N games/s, engine alone: M games/s, ratio R``: with
``--runs N``, the medians of N runs, each upload into a fresh database (wall-clock figures
on a shared machine swing from one run to the next), and the ratio of the two medians.

Usage: DATABASE_URL=postgres://... CELERY_BROKER_URL=redis://... python bench/ingest.py
       [--games 2000] [--processes 1] [--runs 1] [--database NAME] [--log FILE]
       [--timeout SECONDS]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".cache"
PYTHON = sys.executable
QUEUE = "raspis-bench"
#: Seconds between two looks at the upload. Each look costs the server CPU that the pipeline
#: would use, and the upload's own ``finished_at`` times its end, so looks are rare until the
#: last batch runs; then they are frequent, so that the worker's CPU time is read at its end.
POLL_SLOW = 0.5
POLL_FAST = 0.05


def records(games: int) -> bytes:
    """The JSON Lines file, simulated once and cached."""
    path = CACHE / f"classic-4p-{games}-seed-2026.jsonl"
    if not path.exists():
        sys.path.insert(0, str(ROOT))
        from replay.simulate import simulate_games

        print(f"simulating {games} games (cached in {path.relative_to(ROOT)}) ...", flush=True)
        CACHE.mkdir(parents=True, exist_ok=True)
        lines = (
            json.dumps(r, ensure_ascii=False) for r in simulate_games("classic", 4, games, 2026)
        )
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path.read_bytes()


def engine_rate(data: bytes) -> float:
    """Games per second of the engine alone: every line of ``data`` read and verified."""
    sys.path.insert(0, str(ROOT))
    from replay import Verdict, record_json, verify

    lines = data.decode("utf-8").splitlines()
    # Start from a collected heap, as bench/replay.py does: the collections the work itself
    # causes still count, not one owed by what came before.
    gc.collect()
    start = time.perf_counter()
    verdicts = [verify(record_json(line)).verdict for line in lines]
    elapsed = time.perf_counter() - start
    if any(verdict is not Verdict.VERIFIED for verdict in verdicts):
        raise SystemExit("the engine did not verify every game")
    return len(lines) / elapsed


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def database_reset(url: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def request(method: str, url: str, token: str, body: bytes = b"", ctype: str = "") -> dict:
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    if ctype:
        headers["Content-Type"] = ctype
    req = urllib.request.Request(url, data=body or None, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=120) as response:
        return json.loads(response.read())


def multipart(name: str, data: bytes) -> tuple[bytes, str]:
    boundary = secrets.token_hex(16)
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    return head + data + tail, f"multipart/form-data; boundary={boundary}"


def _processes() -> dict[int, tuple[str, int, int, int]]:
    """Every process: name, parent, CPU ticks so far, and those of its ended children."""
    stats = {}
    for path in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = path.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        name = text[text.index("(") + 1 : text.rindex(")")]
        own, children = int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])
        stats[int(path.parent.name)] = (name, int(fields[1]), own, children)
    return stats


def database_cpu_seconds() -> float:
    """CPU time so far of this machine's PostgreSQL processes (0 when it runs elsewhere).

    With the engine's time taken away, PostgreSQL bounds the pipeline: this says how much of
    the second core it takes.
    """
    ticks = sum(t + c for name, _, t, c in _processes().values() if name.startswith("postgres"))
    return ticks / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float | None:
    """CPU time so far of process ``pid`` and its living descendants (Linux ``/proc``), or None.

    Wall-clock figures on a shared machine vary from day to day; the worker's CPU time per
    game says how much of a change is the code's.
    """
    stats = {p: (parent, ticks) for p, (_, parent, ticks, _) in _processes().items()}
    if pid not in stats:
        return None
    family, total = {pid}, 0
    for child, (parent, _) in sorted(stats.items()):
        if parent in family:
            family.add(child)
    for member in family:
        total += stats[member][1]
    return total / os.sysconf("SC_CLK_TCK")


def statistics_wait(url: str, games: int, start: float, timeout: float) -> float | None:
    """Seconds from the POST until the statistics count every game, or None past ``timeout``.

    The worker updates the statistics of each batch's games after all the batches (the tasks
    are queued in that order): an organiser sees the games at once, and the leaderboards
    this much later.
    """
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        while time.perf_counter() - start < timeout:
            row = conn.execute("SELECT count(*) FROM stats_gamefact").fetchone()
            if row is not None and row[0] >= games:
                return time.perf_counter() - start
            time.sleep(POLL_FAST)
    return None


def wait_for(url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer at {url}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--processes", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--database", default="raspis_bench", help="the bench's database, dropped each run"
    )
    parser.add_argument("--log", default=str(CACHE / "ingest.log"), help="server and worker log")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument(
        "--runs", type=int, default=1, help="uploads, each into a fresh database; the median counts"
    )
    args = parser.parse_args()
    database_url = os.environ.get("DATABASE_URL", "")
    broker_url = os.environ.get("CELERY_BROKER_URL", "")
    if not database_url.startswith("postgres") or not broker_url:
        raise SystemExit("set DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL")

    data = records(args.games)
    rates, engine = [], []
    for run in range(1, args.runs + 1):
        if args.runs > 1:
            print(f"run {run} of {args.runs}", flush=True)
        engine.append(engine_rate(data))
        print(f"engine alone: {engine[-1]:.0f} games/s", flush=True)
        rates.append(upload_timed(args, data, database_url))
    if args.runs > 1:
        print("runs: " + ", ".join(f"{rate:.0f}" for rate in rates) + " games/s")
        print("engine alone: " + ", ".join(f"{rate:.0f}" for rate in engine) + " games/s")
        print("their medians:")
    ingest, alone = statistics.median(rates), statistics.median(engine)
    ratio = ingest / alone
    print(f"ingest: {ingest:.0f} games/s, engine alone: {alone:.0f} games/s, ratio {ratio:.2f}")


def upload_timed(args: argparse.Namespace, data: bytes, database_url: str) -> float:
    """One upload of ``data`` into a fresh database, reported; returns its games per second."""
    database_reset(database_url, args.database)
    env = {
        **os.environ,
        "DATABASE_URL": with_database(database_url, args.database),
        "CELERY_QUEUE": QUEUE,
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(40),
        "DJANGO_DEBUG": "false",
        "DJANGO_LOG_LEVEL": "INFO",
        "RASPIS_UPLOAD_THROTTLE": "1000/hour",
    }
    manage = [PYTHON, "manage.py"]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    token = secrets.token_hex(20)
    setup = (
        "from django.contrib.auth.models import User; from rest_framework.authtoken.models import "
        f"Token; u = User.objects.create_user('bench'); Token.objects.create(user=u, key='{token}')"
    )
    subprocess.run([*manage, "shell", "-c", setup], cwd=ROOT, env=env, check=True)
    celery = [PYTHON, "-m", "celery", "-A", "config"]
    subprocess.run(
        [*celery, "purge", "-f", "-Q", QUEUE], cwd=ROOT, env=env, check=True, capture_output=True
    )

    port = free_port()
    Path(args.log).parent.mkdir(parents=True, exist_ok=True)
    log = open(args.log, "w")  # noqa: SIM115 - open for the children's lifetime
    server = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "gunicorn",
            "config.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "1",
            "--timeout",
            "300",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    worker = subprocess.Popen(
        [
            *celery,
            "worker",
            "-P",
            "solo" if args.processes == 1 else "prefork",
            "-c",
            str(args.processes),
            "-Q",
            QUEUE,
            "-l",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/api/rulesets/", 30)
        time.sleep(2)  # the worker connects to the broker
        body, ctype = multipart("games.jsonl", data)
        started_at = datetime.now(UTC)
        start = time.perf_counter()
        worker_start = cpu_seconds(worker.pid)
        server_start = cpu_seconds(server.pid)
        database_start = database_cpu_seconds()
        upload = request("POST", base + "/api/uploads/", token, body, ctype)
        posted = time.perf_counter() - start
        status = upload
        batch = 0  # the items of a batch, once the first is done
        while status["status"] not in ("done", "failed"):
            if time.perf_counter() - start > args.timeout:
                raise SystemExit(f"timed out: {status}")
            batch = batch or status["done"]
            last = batch and status["total"] - status["done"] <= batch
            time.sleep(POLL_FAST if last else POLL_SLOW)
            status = request("GET", base + "/api/uploads/", token)["results"][0]
        worker_end = cpu_seconds(worker.pid)
        server_end = cpu_seconds(server.pid)
        database_used = database_cpu_seconds() - database_start
        finished_at = datetime.fromisoformat(status["finished_at"])
        split = datetime.fromisoformat(status["started_at"]) - started_at
        elapsed = (finished_at - started_at).total_seconds()
        # Only verified games count; the simulated ones all are. Waited for a minute at most.
        stored_games = status["done"] - status["failed"] - status["duplicates"]
        counted = statistics_wait(env["DATABASE_URL"], stored_games, start, elapsed + 60)
    finally:
        for child in (server, worker):
            child.terminate()
        for child in (server, worker):
            child.wait(timeout=30)
        log.close()
    stored = status["done"] - status["failed"] - status["duplicates"]
    print(
        f"upload {status['status']}: {status['total']} records, {stored} stored, "
        f"{status['failed']} failed, {status['duplicates']} duplicates"
    )
    pool = "solo pool" if args.processes == 1 else "prefork pool"
    print(f"worker: {args.processes} process{'es' * (args.processes > 1)} ({pool})")
    print(
        f"POST answered after {posted:.2f} s, items split after {split.total_seconds():.2f} s, "
        f"upload complete after {elapsed:.2f} s"
    )
    if worker_start is not None and worker_end is not None:
        used = worker_end - worker_start
        print(
            f"worker CPU during the upload: {used:.2f} s, {1000 * used / args.games:.2f} ms a game "
            f"({100 * used / (elapsed * args.processes):.0f}% of its processes' time)"
        )
    if server_start is not None and server_end is not None:
        print(f"server CPU during the upload: {server_end - server_start:.2f} s")
    print(f"PostgreSQL CPU during the upload: {database_used:.2f} s")
    if counted is None:
        print("statistics: not every game counted a minute after the upload")
    else:
        print(
            f"statistics counted every game after {counted:.2f} s "
            f"({args.games / counted:.0f} games/s with them; the same worker runs both)"
        )
    if status["status"] != "done" or stored != args.games:
        raise SystemExit("the upload did not store every game")
    return args.games / elapsed


if __name__ == "__main__":
    main()
