"""Deduplication within what the uploader may see: another account's private copy of a
record is never matched, so uploading its bytes tells nothing of it."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Game, GameRecord, Visibility
from tests.service.conftest import post_record, store_game, text_of

pytestmark = pytest.mark.django_db


def test_posting_another_accounts_private_record_stores_a_game_of_ones_own(
    client_of: Any, user: Any, other_user: Any, record: Any
) -> None:
    hidden = store_game(record(0), user, visibility="private")
    response = post_record(client_of(other_user), record(0))
    assert response.status_code == 201
    body = response.json()
    assert body["duplicate"] is False
    assert body["game"]["id"] != hidden
    mine = Game.objects.get(pk=body["game"]["id"])
    assert (mine.uploaded_by, mine.visibility) == (other_user, Visibility.PUBLIC)
    assert Game.objects.get(pk=hidden).visibility == Visibility.PRIVATE
    assert (
        GameRecord.objects.filter(sha256=GameRecord.objects.get(game_id=hidden).sha256).count() == 2
    )


def test_an_upload_of_another_accounts_private_record_is_stored_not_a_duplicate(
    client_of: Any, user: Any, other_user: Any, record: Any, committed: Any
) -> None:
    hidden = store_game(record(0), user, visibility="private")
    client = client_of(other_user)
    data = (text_of(record(0)) + "\n").encode()
    with committed():
        response = client.post(
            "/api/uploads/", {"file": SimpleUploadedFile("g.jsonl", data)}, format="multipart"
        )
    (item,) = client.get(response.json()["url"]).json()["items"]
    assert item["outcome"] == "stored"
    assert item["game"] != hidden


@pytest.mark.parametrize("visibility", ["public", "private"])
def test_a_copy_the_uploader_may_see_is_a_duplicate(
    client_of: Any, user: Any, other_user: Any, record: Any, visibility: str
) -> None:
    store_game(record(0), user, visibility="private")
    own = store_game(record(0), other_user, visibility=visibility)
    again = post_record(client_of(other_user), record(0)).json()
    assert (again["duplicate"], again["game"]["id"]) == (True, own)


def test_a_public_copy_is_matched_for_everyone_and_a_private_one_for_its_owner(
    client_of: Any, user: Any, other_user: Any, staff_user: Any, record: Any
) -> None:
    private = store_game(record(0), user, visibility="private")
    public = store_game(record(0), other_user)
    assert post_record(client_of(user), record(0)).json()["game"]["id"] == private
    assert post_record(client_of(staff_user), record(0)).json()["duplicate"] is True
    third = store_game(record(1), staff_user, visibility="private")
    assert store_game(record(1), staff_user) == third
    assert post_record(client_of(other_user), record(0)).json()["game"]["id"] == public
