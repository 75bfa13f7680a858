"""The admin shows statistics read-only: derived rows are rebuilt, never edited."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from .conftest import GAME_1

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(store: Any) -> Client:
    store([GAME_1])
    client = Client()
    client.force_login(User.objects.create(username="root", is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("model", ["playerstat", "rating", "headtohead", "leaderboardsnapshot"])
def test_each_statistics_list_opens(admin_client_: Client, model: str) -> None:
    assert admin_client_.get(f"/admin/stats/{model}/").status_code == 200


def test_a_statistics_row_cannot_be_added(admin_client_: Client) -> None:
    assert admin_client_.get("/admin/stats/playerstat/add/").status_code == 403
