"""A throwaway Raspis, process by process, for tests that kill its parts.

A PostgreSQL cluster of its own (``initdb`` in a temporary directory, on a free port) and a
Redis of its own, so that stopping them harms nothing else; the site served by
``scripts/serve``, Celery workers and beat, each a process of its own. The tests talk to it
as a client does, over HTTP, and read the database directly to count what was stored.
"""

from __future__ import annotations

import glob
import http.client
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[2]


def postgres_bin() -> Path | None:
    """The newest PostgreSQL server's programs installed, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _version(path: str) -> tuple[int, ...]:
    return tuple(int(p) for p in Path(path).parts[-3].split(".") if p.isdigit())


def available() -> str | None:
    """Why a stack cannot be started here, or None when it can."""
    if postgres_bin() is None:
        return "no PostgreSQL server programs (initdb, pg_ctl)"
    if shutil.which("redis-server") is None:
        return "no redis-server"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root with no postgres user to run the cluster as"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> float:
    """Seconds until ``condition()`` held; fails the test after ``timeout``."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > timeout:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.1)
    return time.monotonic() - started


class Postgres:
    """A cluster in ``directory``; PostgreSQL refuses to run as root, so it then runs as the
    ``postgres`` user."""

    def __init__(self, directory: Path) -> None:
        self.bin = postgres_bin()
        self.data = directory / "pgdata"
        self.run = directory / "pgrun"  # its socket and log
        self.port = free_port()
        for made in (self.data, self.run):
            made.mkdir()
            if os.geteuid() == 0:
                owner = pwd.getpwnam("postgres")
                os.chmod(directory, 0o755)
                os.chown(made, owner.pw_uid, owner.pw_gid)
        self._run("initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8")
        self.start()
        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute("CREATE DATABASE raspis")

    def _run(self, program: str, *args: object) -> None:
        command = [str(self.bin / program), *map(str, args)]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True)

    def url(self, database: str = "raspis") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        self._pg_ctl("start")

    def restart(self) -> None:
        """A fast restart: open connections are cut, transactions in flight roll back."""
        self._pg_ctl("restart", "-m", "fast")

    def _pg_ctl(self, action: str, *args: str) -> None:
        # With a log file the server holds none of this process's pipes, which would keep
        # ``_run`` waiting for their end.
        options = (
            f"-p {self.port} -k {self.run} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c full_page_writes=off -c max_connections=100"
        )
        log = self.run / "postgres.log"
        self._run("pg_ctl", action, "-D", self.data, "-o", options, "-l", log, "-w", *args)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.url()) as connection:
            return connection.execute(sql, params).fetchall()


class Redis:
    """A Redis that keeps nothing on disk: stopped and started, it comes back empty, as a
    broker restarted without persistence does."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.directory)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        wait_for(self._answers, 20, "redis starts")

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


@dataclass
class Answer:
    status: int
    body: Any
    retry_after: str | None


@dataclass
class Stack:
    """Raspis on its own PostgreSQL and Redis; ``token`` is an account's API token."""

    directory: Path
    postgres: Postgres
    redis: Redis
    env: dict[str, str]
    port: int = 0
    token: str = ""
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def start(self, name: str, *command: str) -> subprocess.Popen[bytes]:
        log = (self.directory / f"{name}.log").open("ab")
        process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        self.processes[name] = process
        return process

    def worker(self, name: str = "worker") -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo"]
        command += ["-n", f"{name}-{uuid.uuid4().hex[:6]}@%h", "-l", "INFO"]
        command += ["--without-gossip", "--without-mingle"]
        return self.start(name, *command)

    def beat(self) -> subprocess.Popen[bytes]:
        schedule = str(self.directory / "celerybeat-schedule")
        command = [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "INFO"]
        return self.start("beat", *command, "--schedule", schedule)

    def serve(self) -> None:
        self.start("web", str(ROOT / "scripts" / "serve"))
        wait_for(lambda: self._up("/api/schema/"), 60, "scripts/serve starts")

    def _up(self, path: str) -> bool:
        try:
            return self.get(path).status == 200
        except OSError:
            return False

    def kill(self, name: str) -> None:
        process = self.processes.pop(name)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=20)

    def stop(self, name: str) -> None:
        process = self.processes.pop(name)
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            auth = {"Authorization": f"Token {self.token}"} if self.token else {}
            connection.request(method, path, body=body, headers={**auth, **(headers or {})})
            response = connection.getresponse()
            data = response.read()
            try:
                parsed = json.loads(data) if data else None
            except ValueError:
                parsed = data.decode(errors="replace")
            return Answer(response.status, parsed, response.getheader("Retry-After"))
        finally:
            connection.close()

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def upload(self, name: str, data: bytes) -> Answer:
        boundary = uuid.uuid4().hex
        body = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        body += data + f"\r\n--{boundary}--\r\n".encode()
        content_type = f"multipart/form-data; boundary={boundary}"
        return self.request("POST", "/api/uploads/", body, {"Content-Type": content_type})

    def uploads(self) -> dict[int, tuple[str, int, int, int]]:
        """Every upload's status, total, done and failed."""
        rows = self.postgres.query("SELECT id, status, total, done, failed FROM uploads_upload")
        return {row[0]: row[1:] for row in rows}

    def all_done(self, upload_ids: list[int]) -> bool:
        uploads = self.uploads()
        return all(uploads[i][0] == "done" for i in upload_ids)

    def stored_once(self, upload_ids: list[int], records: int) -> None:
        """Each upload's records, ``records`` of them, each stored in a game of its own, and
        the database holding one game for each record stored and no others."""
        uploads = self.uploads()
        for upload_id in upload_ids:
            assert uploads[upload_id] == ("done", records, records, 0), uploads[upload_id]
        outcomes = self.postgres.query(
            "SELECT outcome, count(*), count(DISTINCT game_id) FROM uploads_uploaditem "
            "WHERE upload_id = ANY(%s) GROUP BY outcome",
            upload_ids,
        )
        expected = len(upload_ids) * records
        assert outcomes == [("stored", expected, expected)], outcomes
        games = self.postgres.query(
            "SELECT (SELECT count(*) FROM games_game), (SELECT count(*) FROM games_gamerecord),"
            " (SELECT count(*) FROM uploads_uploaditem WHERE outcome = 'stored')"
        )
        assert games[0][0] == games[0][1] == games[0][2], games


@contextmanager
def stack(**settings: str) -> Iterator[Stack]:
    """A migrated Raspis with an account and its token, served, with one worker and beat;
    ``settings`` are more environment variables."""
    directory = Path(tempfile.mkdtemp(prefix="raspis-fault-"))
    postgres = redis = None
    made: Stack | None = None
    try:
        postgres = Postgres(directory)
        redis = Redis(directory)
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))},
            "DATABASE_URL": postgres.url(),
            "CELERY_BROKER_URL": redis.url(),
            "DJANGO_SECRET_KEY": "fault-tests-only-" + uuid.uuid4().hex,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "PYTHON": sys.executable,
            "PORT": str(free_port()),
            "WEB_CONCURRENCY": "1",
            "RASPIS_UPLOAD_THROTTLE": "100000/hour",
            **settings,
        }
        made = Stack(directory, postgres, redis, env, port=int(env["PORT"]))
        manage = [sys.executable, "manage.py"]
        subprocess.run(
            [*manage, "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True
        )
        made.token = subprocess.run(
            [*manage, "shell", "-c", TOKEN_SCRIPT],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()[-1]
        made.serve()
        made.worker()
        made.beat()
        yield made
    finally:
        if made is not None:
            for name in list(made.processes):
                made.stop(name)
        if redis is not None:
            redis.stop()
        if postgres is not None:
            postgres.stop()
        shutil.rmtree(directory, ignore_errors=True)


TOKEN_SCRIPT = """
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
print(Token.objects.create(user=User.objects.create_user("fault", password="x" * 20)).key)
"""
