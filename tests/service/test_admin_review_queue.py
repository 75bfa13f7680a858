"""The admin's review queue (/admin/games/gametoreview/): flagged and disputed games, the
longest waiting first."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.services import dispute_open
from tests.service.conftest import store_game

pytestmark = pytest.mark.django_db

QUEUE = "/admin/games/gametoreview/"


def test_the_queue_lists_flagged_and_disputed_games_oldest_first_and_not_verified_ones(
    admin_web: Client,
    user: Any,
    other_user: Any,
    record: Any,
    illegal_record: Any,
    mismatch_record: Any,
) -> None:
    flagged = store_game(illegal_record, user)
    verified = store_game(record(1), user)
    disputed = store_game(record(2), user)
    mismatch = store_game(mismatch_record, other_user)  # same external id: another uploader
    dispute_open(game=Game.objects.get(pk=disputed), by=user, reason="deal 2 was misdealt")
    now = timezone.now()
    # Waiting longest: the disputed game, then the mismatch, then the illegal one.
    for game_id, days in ((disputed, 3), (mismatch, 2), (flagged, 1), (verified, 9)):
        Game.objects.filter(pk=game_id).update(created_at=now - timedelta(days=days))

    response = admin_web.get(QUEUE)

    assert response.status_code == 200
    listed = [game.pk for game in response.context["cl"].result_list]
    assert listed == [disputed, mismatch, flagged]
    page = response.content.decode()
    assert f'href="/admin/games/game/{flagged}/review/"' in page
    assert "did not follow" in page  # the first finding of the illegal game


def test_a_row_of_the_queue_opens_the_review_page_of_its_game(
    admin_web: Client, user: Any, illegal_record: Any
) -> None:
    game_id = store_game(illegal_record, user)
    response = admin_web.get(f"{QUEUE}{game_id}/change/")
    assert response.status_code == 302
    assert response["Location"] == f"/admin/games/game/{game_id}/review/"


def test_people_who_are_not_staff_cannot_open_the_queue(client: Client, user: Any) -> None:
    client.force_login(user)
    response = client.get(QUEUE)
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
