"""The environment parsers behind config/settings.py, and the settings they produce."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    DEVELOPMENT_SECRET_KEY,
    env_bool,
    env_database,
    env_float,
    env_int,
    env_list,
    env_rate,
    env_secret_key,
    env_str,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("word", ["1", "true", "True", "YES", "on", " true "])
def test_env_bool_reads_true_words(word: str) -> None:
    assert env_bool("FLAG", False, environ={"FLAG": word}) is True


@pytest.mark.parametrize("word", ["0", "false", "FALSE", "no", "off"])
def test_env_bool_reads_false_words(word: str) -> None:
    assert env_bool("FLAG", True, environ={"FLAG": word}) is False


@pytest.mark.parametrize("word", ["ture", "2", "y", "enabled"])
def test_env_bool_rejects_a_value_that_is_neither_true_nor_false(word: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="FLAG"):
        env_bool("FLAG", True, environ={"FLAG": word})


@pytest.mark.parametrize("environ", [{}, {"FLAG": ""}, {"FLAG": "   "}])
def test_env_bool_uses_the_default_when_unset_or_empty(environ: dict[str, str]) -> None:
    assert env_bool("FLAG", True, environ=environ) is True
    assert env_bool("FLAG", False, environ=environ) is False


def test_env_int_parses_and_defaults() -> None:
    assert env_int("N", 7, environ={"N": "42"}) == 42
    assert env_int("N", 7, environ={}) == 7


def test_env_int_rejects_non_integers_and_values_below_the_minimum() -> None:
    with pytest.raises(ImproperlyConfigured, match="not an integer"):
        env_int("N", 7, environ={"N": "4.5"})
    with pytest.raises(ImproperlyConfigured, match="minimum"):
        env_int("N", 7, minimum=0, environ={"N": "-1"})


def test_env_float_rejects_text() -> None:
    assert env_float("X", 1.0, environ={"X": "2.5"}) == 2.5
    with pytest.raises(ImproperlyConfigured):
        env_float("X", 1.0, environ={"X": "four"})


def test_env_str_and_env_list_strip_blanks() -> None:
    assert env_str("S", "d", environ={"S": "  "}) == "d"
    assert env_list("L", ["x"], environ={"L": " a, ,b ,"}) == ["a", "b"]
    assert env_list("L", ["x"], environ={}) == ["x"]


def test_env_rate_accepts_drf_rates_and_rejects_others() -> None:
    assert env_rate("R", "60/hour", environ={"R": "5/min"}) == "5/min"
    with pytest.raises(ImproperlyConfigured, match="rate"):
        env_rate("R", "60/hour", environ={"R": "lots"})


def test_database_url_selects_postgresql_with_connection_reuse() -> None:
    config = env_database(
        "DATABASE_URL",
        sqlite_path=Path("unused.sqlite3"),
        conn_max_age=60,
        environ={"DATABASE_URL": "postgres://raspis:pw@db.example:5433/raspis"},
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["HOST"], config["PORT"]) == (
        "raspis",
        "raspis",
        "db.example",
        5433,
    )
    assert config["CONN_MAX_AGE"] == 60


def test_no_database_url_selects_sqlite_in_the_given_file() -> None:
    path = Path("/tmp/raspis.sqlite3")
    config = env_database("DATABASE_URL", sqlite_path=path, conn_max_age=60, environ={})
    assert config == {"ENGINE": "django.db.backends.sqlite3", "NAME": path}


def test_a_database_url_with_an_unknown_scheme_is_refused() -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        env_database(
            "DATABASE_URL",
            sqlite_path=Path("x"),
            conn_max_age=0,
            environ={"DATABASE_URL": "nosuchdb://host/name"},
        )


def test_secret_key_is_required_once_services_are_set_and_debug_is_off() -> None:
    for service in ("DATABASE_URL", "CELERY_BROKER_URL"):
        with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY"):
            env_secret_key(debug=False, environ={service: "redis://x"})
        assert env_secret_key(debug=True, environ={service: "x"}) == DEVELOPMENT_SECRET_KEY
    assert env_secret_key(debug=False, environ={}) == DEVELOPMENT_SECRET_KEY
    key = "a-long-enough-key-of-many-characters-0123456789"
    assert env_secret_key(debug=False, environ={"DJANGO_SECRET_KEY": key}) == key


@pytest.mark.parametrize("key", ["x", "s3cret", "a" * 60, "abcdabcdabcdabcdabcdabcdabcdabcdabcd"])
def test_a_short_or_repetitive_secret_key_is_refused_with_debug_off(key: str) -> None:
    environ = {"DJANGO_SECRET_KEY": key, "DATABASE_URL": "postgres://h/db"}
    with pytest.raises(ImproperlyConfigured, match=r"too short [^(]*\(make one"):
        env_secret_key(debug=False, environ=environ)
    assert env_secret_key(debug=True, environ=environ) == key


def test_settings_refuse_to_start_with_a_one_character_secret_key() -> None:
    loaded = _load_settings(DATABASE_URL="postgres://u@h/db", DJANGO_SECRET_KEY="x")
    assert loaded.returncode != 0
    assert "DJANGO_SECRET_KEY is too short" in loaded.stderr


LONG_KEY = "test-only-secret-key-long-enough-0123456789"


def _load_settings(**environ: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter with only the given variables set."""
    env = {key: value for key, value in os.environ.items() if not _is_ours(key)}
    env.update(environ)
    code = (
        "from config import settings as s; "
        "print(s.DEBUG, s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )


def _is_ours(key: str) -> bool:
    return key.startswith(("DJANGO_", "CELERY_", "RASPIS_", "DB_")) or key in {
        "DATABASE_URL",
        "CACHE_URL",
        "REDIS_URL",
    }


def test_settings_with_nothing_set_use_sqlite_eager_celery_and_debug() -> None:
    loaded = _load_settings()
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split() == ["True", "django.db.backends.sqlite3", "True"]


def test_settings_refuse_to_start_without_a_secret_when_deployed() -> None:
    loaded = _load_settings(DATABASE_URL="postgres://u@h/db")
    assert loaded.returncode != 0
    assert "ImproperlyConfigured" in loaded.stderr
    assert "DJANGO_SECRET_KEY" in loaded.stderr


def test_settings_refuse_a_misspelt_debug_flag() -> None:
    loaded = _load_settings(DJANGO_DEBUG="ture")
    assert loaded.returncode != 0
    assert "DJANGO_DEBUG" in loaded.stderr


def test_settings_with_a_broker_run_celery_through_it() -> None:
    loaded = _load_settings(
        DATABASE_URL="postgres://u@h/db",
        CELERY_BROKER_URL="redis://h:6379/0",
        DJANGO_SECRET_KEY=LONG_KEY,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split() == ["False", "django.db.backends.postgresql", "False"]


def test_celery_accepts_json_only_and_acknowledges_late() -> None:
    assert settings.CELERY_ACCEPT_CONTENT == ["json"]
    assert settings.CELERY_TASK_SERIALIZER == settings.CELERY_RESULT_SERIALIZER == "json"
    assert settings.CELERY_TASK_ACKS_LATE is True
    assert settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
    assert settings.CELERY_TASK_SOFT_TIME_LIMIT < settings.CELERY_TASK_TIME_LIMIT


def test_every_task_of_the_apps_retries_on_outages_and_is_redelivered_within_minutes() -> None:
    from django.db import OperationalError

    from config.celery import app

    app.loader.import_default_modules()  # every app's tasks.py
    ours = [t for name, t in app.tasks.items() if name.startswith(("uploads.", "stats."))]
    assert {t.name for t in ours} >= {
        "uploads.tasks.upload_process",
        "uploads.tasks.uploads_resume",
    }
    for task in ours:
        assert OperationalError in task.autoretry_for, task.name
        assert task.max_retries is None and task.acks_late and task.reject_on_worker_lost
    batch = app.tasks["uploads.tasks.upload_process"]
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert batch.soft_time_limit < batch.time_limit < visibility <= 2 * batch.time_limit
    assert "uploads-resume" in settings.CELERY_BEAT_SCHEDULE


def test_the_web_process_loads_what_sending_a_task_needs_before_its_first_request() -> None:
    """The first upload after a restart would otherwise import the broker's transport while
    its batches wait to be queued; nothing may connect, so a broker that is down (port 9
    here) does not stop the web process from starting."""
    script = (
        "import sys, config.wsgi; from config.celery import app; "
        "print(app.finalized, 'uploads.tasks' in sys.modules, "
        "'kombu.transport.redis' in sys.modules, 'celery.backends.redis' in sys.modules)"
    )
    env = {
        **os.environ,
        "CELERY_BROKER_URL": "redis://127.0.0.1:9/0",
        "DJANGO_SECRET_KEY": LONG_KEY,
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("CELERY_RESULT_BACKEND", None)
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True"] * 4


def test_the_shared_cache_is_cache_url_then_redis_url_then_a_redis_broker() -> None:
    from config.env import env_cache_url

    broker = {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/3"}
    assert env_cache_url(environ={}) == ""
    assert env_cache_url(environ={"CELERY_BROKER_URL": "amqp://localhost//"}) == ""
    assert env_cache_url(environ=broker) == "redis://127.0.0.1:6379/3"
    assert env_cache_url(environ={**broker, "REDIS_URL": "redis://r:6379/1"}) == "redis://r:6379/1"
    assert env_cache_url(environ={"CACHE_URL": "rediss://c/2", "REDIS_URL": "redis://r/1"}) == (
        "rediss://c/2"
    )
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        env_cache_url(environ={"CACHE_URL": "memcached://x"})
