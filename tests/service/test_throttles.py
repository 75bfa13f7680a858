"""Throttles: every write and verification counted in the shared cache, and failed sign-ins
limited per account and per address; past a limit, a 429 with ``Retry-After`` and a finding."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.core.cache import caches
from django.test import RequestFactory, override_settings
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient
from rest_framework.views import APIView

from core.logins import GuardedAuthenticationForm
from core.throttles import WriteThrottle
from tests.conftest import PASSWORD
from tests.service.conftest import findings_of, text_of

pytestmark = pytest.mark.django_db

WRITES = {"post", "put", "patch", "delete"}
REDIS_URL = os.environ.get("CACHE_URL") or "redis://127.0.0.1:6379/8"


def _views(patterns: list[Any]) -> Iterator[type[APIView]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _views(pattern.url_patterns)
        elif isinstance(pattern, URLPattern):
            view = getattr(pattern.callback, "cls", None)
            if isinstance(view, type) and issubclass(view, APIView):
                yield view


def test_every_api_view_that_writes_has_a_throttle_scope_or_limits_its_sign_ins() -> None:
    writing = {v for v in _views(get_resolver().url_patterns) if WRITES & set(dir(v))}
    assert len(writing) >= 6
    unthrottled = [
        v.__name__
        for v in writing
        if not getattr(v, "throttle_scope", None) and v.__name__ != "TokenApi"
    ]
    assert unthrottled == []


def verify(client: APIClient, body: str) -> Any:
    return client.post("/api/verify/", body, content_type="application/json")


def test_verifying_past_its_rate_is_a_429_with_retry_after(
    api_client: APIClient, record: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"verify": "2/min"})
    body = text_of(record())
    for _ in range(2):
        assert (
            api_client.post("/api/verify/", body, content_type="application/json").status_code
            == 200
        )
    response = api_client.post("/api/verify/", body, content_type="application/json")
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 60
    (finding,) = findings_of(response)
    assert finding["code"] == "request.throttled"


def test_with_the_cache_away_a_write_is_let_through_uncounted(
    api_client: APIClient, record: Any
) -> None:
    """Redis down (here: nothing listens on its port): verifying still answers."""
    away = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
        }
    }
    body = text_of(record())
    with override_settings(CACHES=away):
        response = api_client.post("/api/verify/", body, content_type="application/json")
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("url", "body"),
    [("/api/rulesets/", {"name": "club", "preset": "classic"}), ("/api/games/1/disputes/", {})],
)
def test_writes_past_their_rate_are_refused(
    client_of: Any, user: Any, monkeypatch: pytest.MonkeyPatch, url: str, body: dict[str, Any]
) -> None:
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"write": "0/min"})
    response = client_of(user).post(url, body, format="json")
    assert response.status_code == 429
    assert findings_of(response)[0]["code"] == "request.throttled"


@pytest.fixture
def shared_cache(settings: Any) -> Iterator[redis.Redis]:
    """The default cache in Redis under a prefix of this test's own, and a client of its own
    to look at it; skipped where no Redis answers."""
    raw = redis.Redis.from_url(REDIS_URL)
    try:
        raw.ping()
    except redis.RedisError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    prefix = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": prefix,
        }
    }
    yield raw
    for key in raw.scan_iter(f"{prefix}:*"):
        raw.delete(key)


def test_two_clients_on_two_cache_connections_add_to_one_count(
    shared_cache: redis.Redis, record: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"verify": "3/min"})
    body = text_of(record())
    answers: list[int] = []
    connections: list[Any] = []

    def verify_twice() -> None:
        connections.append(caches["default"])  # each thread has a connection of its own
        answers.extend(verify(APIClient(), body).status_code for _ in range(2))

    other = threading.Thread(target=verify_twice)
    other.start()
    other.join()
    connections.append(caches["default"])
    assert connections[0] is not connections[1]
    answers.extend(verify(APIClient(), body).status_code for _ in range(2))
    assert answers == [200, 200, 200, 429]
    assert any(b"throttle_verify" in key for key in shared_cache.scan_iter("test-*"))


def _token(client: APIClient, username: str, password: str, address: str) -> Any:
    return client.post(
        "/api/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )


def test_failed_sign_ins_lock_the_account_and_the_address_even_for_the_right_password(
    api_client: APIClient, user: Any, other_user: Any, settings: Any
) -> None:
    settings.RASPIS_LOGIN_THROTTLE = "3/hour"
    for _ in range(3):
        assert _token(api_client, "anna", "wrong", "10.0.0.1").status_code == 400
    refused = _token(api_client, "anna", PASSWORD, "10.0.0.1")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert findings_of(refused)[0]["code"] == "request.throttled"
    # the account from another address, and another account from the same address
    assert _token(api_client, "Anna", PASSWORD, "10.0.0.2").status_code == 429
    assert _token(api_client, "boris", PASSWORD, "10.0.0.1").status_code == 429
    assert _token(api_client, "boris", PASSWORD, "10.0.0.2").status_code == 200


def test_successful_sign_ins_are_not_counted(
    api_client: APIClient, user: Any, settings: Any
) -> None:
    settings.RASPIS_LOGIN_THROTTLE = "2/hour"
    for _ in range(5):
        assert _token(api_client, "anna", PASSWORD, "10.0.0.1").status_code == 200


def test_the_sites_login_form_shares_the_limit(user: Any, settings: Any) -> None:
    settings.RASPIS_LOGIN_THROTTLE = "2/hour"
    request = RequestFactory().post("/login/", REMOTE_ADDR="10.0.0.9")

    def form(password: str) -> GuardedAuthenticationForm:
        return GuardedAuthenticationForm(request, data={"username": "anna", "password": password})

    assert form(PASSWORD).is_valid()
    assert not form("wrong").is_valid()
    assert _token(APIClient(), "anna", "wrong", "10.0.0.7").status_code == 400
    refused = form(PASSWORD)
    assert not refused.is_valid()
    assert refused.has_error("__all__", code="throttled")
