"""Typed parsers that turn environment variables into settings.

They live apart from ``settings.py`` so tests can call them with a plain dict instead of
reloading the settings module. A value that cannot be parsed raises ``ImproperlyConfigured``
at start-up: a typo such as ``DJANGO_DEBUG=ture`` must stop the service, not silently pick a
default. An unset or empty variable means "use the default".
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})

# Used only when neither DATABASE_URL nor CELERY_BROKER_URL is set, or DEBUG is on.
DEVELOPMENT_SECRET_KEY = "django-insecure-DEVELOPMENT-ONLY-never-use-this-key-in-production"

Environ = Mapping[str, str]

#: The shortest secret key accepted with DEBUG off. Django's deploy check asks for 50, which
#: a generated key has (README); below this a key is refused at start-up, not just warned of.
MIN_SECRET_KEY_LENGTH = 32


def _raw(name: str, environ: Environ) -> str | None:
    value = environ.get(name, "").strip()
    return value or None


def env_str(name: str, default: str = "", *, environ: Environ = os.environ) -> str:
    """Return the variable as text, or ``default`` when it is unset or empty."""
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(name: str, default: bool, *, environ: Environ = os.environ) -> bool:
    """Return the variable as a boolean; anything but a true or false word is an error."""
    value = _raw(name, environ)
    if value is None:
        return default
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is neither true ({', '.join(sorted(TRUE_WORDS))}) "
        f"nor false ({', '.join(sorted(FALSE_WORDS))})"
    )


def env_int(
    name: str, default: int, *, minimum: int | None = None, environ: Environ = os.environ
) -> int:
    """Return the variable as an integer, optionally no smaller than ``minimum``."""
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}")
    return number


def env_float(
    name: str, default: float, *, minimum: float | None = None, environ: Environ = os.environ
) -> float:
    """Return the variable as a float, optionally no smaller than ``minimum``."""
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}")
    return number


def env_list(name: str, default: list[str], *, environ: Environ = os.environ) -> list[str]:
    """Return a comma-separated variable as a list of its non-empty, stripped items."""
    value = _raw(name, environ)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_rate(name: str, default: str, *, environ: Environ = os.environ) -> str:
    """Return a DRF throttle rate such as ``60/hour``, checked here rather than per request."""
    value = env_str(name, default, environ=environ)
    count, _, period = value.partition("/")
    unit = period.lstrip("0123456789")[:1]
    if not count.isdigit() or unit not in {"s", "m", "h", "d"}:
        raise ImproperlyConfigured(f"{name}={value!r} is not a rate like '60/hour'")
    return value


def env_cache_url(*, environ: Environ = os.environ) -> str:
    """The Redis URL of the shared cache: ``CACHE_URL``, ``REDIS_URL``, or the broker's
    ``CELERY_BROKER_URL`` when it is Redis; "" for none (local memory)."""
    for name in ("CACHE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        url = env_str(name, environ=environ)
        if url.startswith(("redis://", "rediss://", "unix://")):
            return url
        if url and name != "CELERY_BROKER_URL":
            raise ImproperlyConfigured(f"{name}={url!r} is not a redis:// URL")
    return ""


def env_database(
    name: str, *, sqlite_path: Path, conn_max_age: int, environ: Environ = os.environ
) -> dict[str, Any]:
    """Return Django's ``DATABASES["default"]`` from a database URL, or SQLite when unset.

    SQLite keeps check-out-and-run working with nothing installed; a URL such as
    ``postgres://user@host:5432/name`` selects PostgreSQL through psycopg 3.
    """
    url = _raw(name, environ)
    if url is None:
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": sqlite_path}
    try:
        config = dict(
            dj_database_url.parse(url, conn_max_age=conn_max_age, conn_health_checks=True)
        )
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} is not a usable database URL: {error}") from None
    if not config.get("ENGINE"):
        raise ImproperlyConfigured(f"{name} names no database engine Django knows")
    return config


def env_secret_key(*, debug: bool, environ: Environ = os.environ) -> str:
    """Return ``DJANGO_SECRET_KEY``, refusing the development key once real services are set.

    Setting ``DATABASE_URL`` or ``CELERY_BROKER_URL`` with DEBUG off means a deployment, and a
    deployment signing sessions with a key printed in the source would be forgeable; so would
    one signing them with a key short enough to guess, which is refused with DEBUG off.
    """
    key = _raw("DJANGO_SECRET_KEY", environ)
    if key is not None:
        if not debug and (len(key) < MIN_SECRET_KEY_LENGTH or len(set(key)) < 5):
            raise ImproperlyConfigured(
                f"DJANGO_SECRET_KEY is too short to sign sessions safely: {len(key)} characters, "
                f"{len(set(key))} different; it needs at least {MIN_SECRET_KEY_LENGTH} and 5 "
                "(make one with: python3 -c 'import secrets; print(secrets.token_urlsafe(50))')"
            )
        return key
    deployed = _raw("DATABASE_URL", environ) or _raw("CELERY_BROKER_URL", environ)
    if deployed and not debug:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is required when DATABASE_URL or CELERY_BROKER_URL is set "
            "and DJANGO_DEBUG is off"
        )
    return DEVELOPMENT_SECRET_KEY
