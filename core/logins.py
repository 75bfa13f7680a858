"""Limits on guessing passwords: failed sign-ins counted per account and per address.

Every way to sign in (``POST /api/auth/token/``, the site's login form through
``GuardedAuthenticationForm``) asks ``login_wait`` first and reports each failure to
``login_failed``. Past ``RASPIS_LOGIN_THROTTLE`` failures in its window, an account, or an
address, is refused even the right password until the window ends: counting only failures
lets the owner in once the guessing stops, and refusing the right password too is what
stops a guess from being confirmed. The counters live in the default cache, which
deployments point at Redis (``CACHES``) so that every web process shares them; each is one
atomic increment.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from rest_framework.throttling import BaseThrottle

DURATIONS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _rate() -> tuple[int, int]:
    """``RASPIS_LOGIN_THROTTLE`` as (failures, seconds)."""
    count, _, period = str(settings.RASPIS_LOGIN_THROTTLE).partition("/")
    return int(count), DURATIONS[period.lstrip("0123456789")[0]]


def address_of(request: HttpRequest) -> str:
    """The client's address as the API's throttles tell it (``NUM_PROXIES``)."""
    return str(BaseThrottle().get_ident(request))  # type: ignore[arg-type]


def _keys(username: str, address: str, window: int) -> list[str]:
    account = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]
    return [f"login:account:{account}:{window}", f"login:address:{address}:{window}"]


def _window() -> tuple[int, int, int]:
    """The current window's number, its length and the seconds left in it."""
    _, seconds = _rate()
    now = int(time.time())
    return now // seconds, seconds, seconds - now % seconds


def login_wait(*, username: str, address: str) -> int | None:
    """Seconds to wait before this account or address may try again; None when it may now."""
    limit, _ = _rate()
    window, _, left = _window()
    counts = cache.get_many(_keys(username, address, window))
    return left if any(count >= limit for count in counts.values()) else None


def login_failed(*, username: str, address: str) -> None:
    """Count one failed sign-in against the account and the address."""
    window, seconds, _ = _window()
    for key in _keys(username, address, window):
        cache.add(key, 0, timeout=seconds + 1)
        try:
            cache.incr(key)
        except ValueError:  # expired between the two calls: this failure starts the count
            cache.add(key, 1, timeout=seconds + 1)


class GuardedAuthenticationForm(AuthenticationForm):
    """Django's login form with the same limits: give it to ``LoginView`` as its
    ``authentication_form``."""

    error_messages = {  # noqa: RUF012 (Django's forms declare it so)
        **AuthenticationForm.error_messages,
        "throttled": _("Too many failed sign-ins: try again in %(seconds)s seconds."),
    }

    def clean(self) -> dict[str, Any]:
        username = str(self.data.get("username") or "")
        address = "" if self.request is None else address_of(self.request)
        wait = login_wait(username=username, address=address)
        if wait is not None:
            raise forms.ValidationError(
                self.error_messages["throttled"], code="throttled", params={"seconds": wait}
            )
        try:
            return super().clean()
        except forms.ValidationError:
            login_failed(username=username, address=address)
            raise
