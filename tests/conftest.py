"""Fixtures shared by every Django test: an API client and three users in the real database.

Tests marked ``celery_worker`` need a real broker and are skipped when Celery runs eagerly
(no ``CELERY_BROKER_URL``); ``.ci/run`` sets one, so CI runs them. Such a test should use
``transactional_db``: the worker thread cannot see rows inside the test's transaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from rest_framework.test import APIClient

if TYPE_CHECKING:
    from django.contrib.auth.models import User

PASSWORD = "correct-horse-battery-staple"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return
    skip = pytest.mark.skip(reason="needs a real broker: set CELERY_BROKER_URL (see .ci/run)")
    for item in items:
        if item.get_closest_marker("celery_worker"):
            item.add_marker(skip)


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def user(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user(username="anna", password=PASSWORD)


@pytest.fixture
def other_user(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user(username="boris", password=PASSWORD)


@pytest.fixture
def staff_user(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user(username="vera", password=PASSWORD, is_staff=True)


@pytest.fixture(autouse=True)
def _fresh_throttle(settings: Any) -> Iterator[None]:
    """Throttle counters live in the cache, which outlives each test's database: each test
    counts in local memory of its own, never in a Redis it may share with the broker."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """A request activates its reader's language in the thread that serves it, and the test
    client serves in the test's own: each test starts in the default language, whatever the
    tests before it asked for."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()
