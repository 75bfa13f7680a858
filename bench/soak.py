#!/usr/bin/env python3
"""A bounded mixed load: ordinary readers beside an anonymous flood, and how the readers fare.

For ``--seconds`` (30), ``--readers`` threads (4) read what visitors read (a game list, a
game, the table at a moment, a leaderboard) one request after another, while the flood runs
beside them: ``--verifiers`` threads (4) post the longest legal record and a 40,000-deal one
to ``POST /api/verify/`` without an account, ``--slow`` sockets (2) send a request a byte a
second, and one thread uploads a zip whose members claim a few bytes and inflate to 64 MiB.
The last lines are the readers' p50 and p99 latency and the share of their requests answered
within 2 s (a request that fails or times out counts as slower), and what the flood was
answered: by status, 0 for a connection that closed or timed out (a 40,000-deal body is
answered 413 from its length, and the connection closed while the client still sends it).

The server is started here on a free loopback port against its own database (``--database``,
``raspis_soak``, dropped and migrated first, with 20 stored games) on the server of
``DATABASE_URL``: the production server (``scripts/serve``), or ``--serve`` another command
that reads ``PORT`` or names ``{port}`` (``--serve 'python -m gunicorn config.wsgi -b
127.0.0.1:{port} -w 2'`` for two sync workers, to compare). Its settings are the service's
defaults, throttles included.

Usage: DATABASE_URL=postgres://... python bench/soak.py [--seconds 30] [--readers 4]
       [--verifiers 4] [--slow 2] [--serve COMMAND] [--database NAME] [--log FILE]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import secrets
import shlex
import socket
import statistics
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ingest import database_reset, free_port, multipart, wait_for, with_database

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
WITHIN = 2.0
TIMEOUT = 10.0


def call(url: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> int:
    """The status of one request; 0 when it failed or timed out."""
    request = urllib.request.Request(url, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        error.read()
        return int(error.code)
    except (OSError, TimeoutError):
        return 0


def forged_zip() -> bytes:
    """64 MiB of blank lines packed into a zip whose headers say the member holds 1,000."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("games.jsonl", b" " * (64 << 20))
    data = bytearray(buffer.getvalue())
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = data.find(signature)
        data[at + offset : at + offset + 4] = struct.pack("<I", 1000)
    return bytes(data)


def records() -> tuple[list[bytes], bytes, bytes]:
    """Twenty ordinary games, the longest legal game, and a 40,000-deal one."""
    from replay.simulate import simulate_game

    games = [json.dumps(simulate_game("classic", 4, seed)).encode() for seed in range(20)]
    longest = simulate_game(
        {"preset": "two_jacks", "options": {"deck": "104", "min_players": 2}}, 2, 1
    )
    huge = simulate_game("classic", 4, 99)
    huge["deals"] = huge["deals"] * (40_000 // 36 + 1)
    return games, json.dumps(longest).encode(), json.dumps(huge).encode()


class Load:
    """The threads of one run and what they saw."""

    def __init__(self, base: str, token: str, seconds: float) -> None:
        self.base = base
        self.token = token
        self.stop = time.monotonic() + seconds
        self.latencies: list[float] = []
        self.flood: Counter[str] = Counter()
        self.lock = threading.Lock()

    def running(self) -> bool:
        return time.monotonic() < self.stop

    def reader(self, game_ids: list[int], seed: int) -> None:
        paths = ["/api/games/", "/api/leaderboards/classic/"]
        for game_id in game_ids:
            paths += [f"/api/games/{game_id}/", f"/api/games/{game_id}/replay/?deal=3&trick=1"]
        i = seed
        while self.running():
            started = time.monotonic()
            status = call(self.base + paths[i % len(paths)])
            took = time.monotonic() - started if status == 200 else float("inf")
            with self.lock:
                self.latencies.append(took)
            i += 1

    def verifier(self, bodies: list[tuple[str, bytes]]) -> None:
        i = 0
        while self.running():
            name, body = bodies[i % len(bodies)]
            status = call(self.base + "/api/verify/", body, {"Content-Type": "application/json"})
            with self.lock:
                self.flood[f"verify {name} {status}"] += 1
            i += 1

    def slow_client(self) -> None:
        head = (
            b"POST /api/verify/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
        )
        while self.running():
            try:
                host, port = self.base.removeprefix("http://").split(":")
                with socket.create_connection((host, int(port))) as s:
                    s.sendall(head)
                    while self.running():
                        s.sendall(b" ")
                        time.sleep(1)
            except OSError:
                with self.lock:
                    self.flood["slow client dropped"] += 1
                time.sleep(1)

    def zip_uploader(self, data: bytes) -> None:
        body, ctype = multipart("games.zip", data)
        headers = {"Content-Type": ctype, "Authorization": f"Token {self.token}"}
        while self.running():
            status = call(self.base + "/api/uploads/", body, headers)
            with self.lock:
                self.flood[f"forged zip {status}"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--verifiers", type=int, default=4)
    parser.add_argument("--slow", type=int, default=2)
    parser.add_argument("--serve", default="bash scripts/serve")
    parser.add_argument("--database", default="raspis_soak")
    parser.add_argument("--log", default=str(ROOT / "bench" / ".cache" / "soak.log"))
    args = parser.parse_args()
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL server (its database is not touched)")

    games, longest, huge = records()
    database_reset(database_url, args.database)
    token = secrets.token_hex(20)
    env = {
        **os.environ,
        "DATABASE_URL": with_database(database_url, args.database),
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(40),
        "DJANGO_DEBUG": "false",
    }
    env.pop("CELERY_BROKER_URL", None)  # the stored games are small: verified in the request
    manage = [PYTHON, "manage.py"]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    setup = (
        "from django.contrib.auth.models import User; from rest_framework.authtoken.models import "
        f"Token; u = User.objects.create_user('soak'); Token.objects.create(user=u, key='{token}')"
    )
    subprocess.run([*manage, "shell", "-c", setup], cwd=ROOT, env=env, check=True)

    port = free_port()
    env["PORT"] = str(port)
    env.setdefault("PYTHON", PYTHON)  # scripts/serve runs gunicorn with the same interpreter
    command = shlex.split(args.serve.replace("{port}", str(port)))
    Path(args.log).parent.mkdir(parents=True, exist_ok=True)
    with open(args.log, "w") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_for(base + "/api/games/", 60)
            auth = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
            game_ids = []
            for body in games:
                request = urllib.request.Request(base + "/api/games/", data=body, headers=auth)
                with urllib.request.urlopen(request, timeout=60) as response:
                    game_ids.append(json.loads(response.read())["game"]["id"])
            load = Load(base, token, args.seconds)
            threads = [
                *(
                    threading.Thread(target=load.reader, args=(game_ids, i))
                    for i in range(args.readers)
                ),
                *(
                    threading.Thread(
                        target=load.verifier, args=([("longest", longest), ("40k", huge)],)
                    )
                    for _ in range(args.verifiers)
                ),
                *(threading.Thread(target=load.slow_client) for _ in range(args.slow)),
                threading.Thread(target=load.zip_uploader, args=(forged_zip(),)),
            ]
            for thread in threads:
                thread.daemon = True
                thread.start()
            for thread in threads[: args.readers]:
                thread.join()
        finally:
            server.terminate()
            server.wait(timeout=30)

    for what, count in sorted(load.flood.items()):
        print(f"flood: {what}: {count}")
    answered = sorted(load.latencies)
    finite = [t for t in answered if t != float("inf")]
    within = sum(t <= WITHIN for t in answered) / max(len(answered), 1)
    p50 = statistics.median(answered) if answered else float("nan")
    p99 = answered[min(len(answered) - 1, int(0.99 * len(answered)))] if answered else float("nan")
    print(f"readers: {len(answered)} requests, {len(answered) - len(finite)} failed or timed out")
    print(f"readers: p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, ", end="")
    print(f"within {WITHIN:.0f} s: {within:.1%}")


if __name__ == "__main__":
    main()
