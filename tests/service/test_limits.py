"""The limits of one request (``verification.services.limits``): records and files past them are
refused with a 413 and a finding, and nothing is stored; a file whose split goes past them
(too many records, too many bytes unpacked) fails its upload in the worker, with the reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from rest_framework.test import APIClient

from core.bulk import Writes
from games.models import Game
from replay import MAX_DEALS
from tests.engine.test_limits import BOMB_SIZE, _forged, _zip
from tests.service.conftest import findings_of, post_record, text_of
from uploads.files import upload_file_write
from uploads.models import Upload
from uploads.services import upload_split
from uploads.tasks import WORKERS

pytestmark = pytest.mark.django_db

Record = dict[str, Any]


def long_game(record: Callable[..., Record]) -> Record:
    """A 36-deal game repeated to more than 40,000 deals: some 25 MB of JSON."""
    game = record()
    game["deals"] = game["deals"] * (40_000 // 36 + 1)
    return game


def upload(client: APIClient, name: str, data: bytes) -> Any:
    return client.post(
        "/api/uploads/", {"file": SimpleUploadedFile(name, data)}, format="multipart"
    )


def test_verify_refuses_a_record_past_the_record_size(
    api_client: APIClient, record: Callable[..., Record]
) -> None:
    body = text_of(long_game(record))
    response = api_client.post("/api/verify/", body, content_type="application/json")
    assert response.status_code == 413
    (finding,) = findings_of(response)
    assert finding["code"] == "request.too_large"
    assert (finding["expected"], finding["actual"]) == (1024 * 1024, len(body))


@override_settings(RASPIS_MAX_RECORD_BYTES=100 * 1024 * 1024)
def test_verify_refuses_forty_thousand_deals_before_replaying_them(
    api_client: APIClient, record: Callable[..., Record]
) -> None:
    game = long_game(record)
    response = api_client.post("/api/verify/", text_of(game), content_type="application/json")
    assert response.status_code == 413
    (finding,) = findings_of(response)
    assert (finding["code"], finding["path"]) == ("request.too_large", "/deals")
    assert (finding["expected"], finding["actual"]) == (MAX_DEALS, len(game["deals"]))


@override_settings(RASPIS_MAX_RECORD_DEALS=35)
def test_storing_a_record_past_the_deals_is_refused(
    client_of: Any, user: Any, record: Callable[..., Record]
) -> None:
    response = post_record(client_of(user), record())
    assert response.status_code == 413
    assert findings_of(response)[0]["actual"] == 36
    assert Game.objects.count() == 0


@override_settings(RASPIS_MAX_RECORD_DEALS=35)
def test_an_uploaded_record_past_the_deals_is_rejected_and_the_others_stored(
    client_of: Any, user: Any, record: Callable[..., Record], committed: Any
) -> None:
    short = record(1)
    short["deals"] = short["deals"][:35]
    short.pop("totals", None)
    data = (text_of(record(0)) + "\n" + text_of(short) + "\n").encode()
    client = client_of(user)
    with committed():
        response = upload(client, "games.jsonl", data)
    items = client.get(response.json()["url"]).json()["items"]
    assert items[0]["outcome"] == "rejected"
    assert items[0]["findings"][0]["code"] == "request.too_large"
    assert items[0]["findings"][0]["path"] == "/deals"
    assert items[1]["outcome"] == "stored"


@override_settings(RASPIS_MAX_UNPACKED_BYTES=4 * 1024 * 1024)
@pytest.mark.parametrize("claimed", [None, 0xFFFFFFF0], ids=["honest", "forged"])
def test_an_upload_of_a_zip_past_the_unpacked_bytes_fails_in_the_worker(
    client_of: Any, user: Any, claimed: int | None, committed: Any
) -> None:
    """The request only stores the file (a worker splits it): the split stops inflating at
    the limit, whatever the zip's headers claim, and the upload fails with the reason."""
    data = _zip("games.jsonl", b" " * BOMB_SIZE)
    if claimed is not None:
        data = _forged(data, claimed)
    client = client_of(user)
    with committed():
        response = upload(client, "games.zip", data)
    assert response.status_code == 202
    status = client.get(response.json()["url"]).json()
    assert status["status"] == "failed"
    assert status["error"] == f"more unpacked bytes than the {4 * 1024 * 1024} accepted"
    assert (status["total"], Game.objects.count()) == (0, 0)


def test_an_upload_of_a_million_empty_records_fails_in_the_worker(
    client_of: Any, user: Any, committed: Any
) -> None:
    data = _zip("games.jsonl", b"{}\n" * 1_000_000)
    client = client_of(user)
    with committed():
        response = upload(client, "games.zip", data)
    assert response.status_code == 202
    status = client.get(response.json()["url"]).json()
    assert status["status"] == "failed"
    assert status["error"] == "more records than the 100000 accepted"
    assert (status["total"], Game.objects.count()) == (0, 0)


@override_settings(RASPIS_MAX_UPLOAD_RECORDS=1)
def test_a_split_in_a_worker_past_the_records_fails_the_upload_with_the_reason(
    user: Any, record: Callable[..., Record]
) -> None:
    upload_row = Upload.objects.create(uploaded_by=user, filename="games.jsonl", size=0, sha256="")
    data = (text_of(record(0)) + "\n" + text_of(record(1)) + "\n").encode()
    with Writes() as writes:
        upload_file_write(upload_row.pk, data, writes)
    assert upload_split(upload_id=upload_row.pk, workers=WORKERS) == []
    upload_row.refresh_from_db()
    assert (upload_row.status, upload_row.error) == ("failed", "more records than the 1 accepted")
