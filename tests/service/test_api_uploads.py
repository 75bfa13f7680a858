"""POST/GET /api/uploads/: files of records, verified in batches, with per-record outcomes."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError
from django.test import override_settings
from rest_framework.test import APIClient

from config.celery import app
from games.models import Game, GameRecord
from tests.service.conftest import findings_of, text_of
from uploads.files import upload_file_read
from uploads.models import Upload, UploadItem, UploadPart
from uploads.services import upload_process, upload_split
from uploads.tasks import WORKERS
from verification.models import SeatDeal, VerdictChange

pytestmark = pytest.mark.django_db


def upload(client: APIClient, name: str, data: bytes, **fields: Any) -> Any:
    return client.post(
        "/api/uploads/", {"file": SimpleUploadedFile(name, data), **fields}, format="multipart"
    )


def jsonl(*records: dict[str, Any]) -> bytes:
    return "\n".join(text_of(r) for r in records).encode() + b"\n"


def test_anonymous_users_cannot_upload(api_client: APIClient, record: Any) -> None:
    response = upload(api_client, "games.jsonl", jsonl(record()))
    assert response.status_code == 401
    assert findings_of(response)[0]["code"] == "request.unauthenticated"
    assert Upload.objects.count() == 0


def test_a_jsonl_file_is_stored_first_then_verified_record_by_record(
    client_of: Any, user: Any, record: Any, illegal_record: Any, committed: Any
) -> None:
    client = client_of(user)
    illegal = dict(illegal_record, meta={**illegal_record["meta"], "external_id": "x-1"})
    data = jsonl(record(0), illegal) + b"not json at all\n" + jsonl(record(0))
    with committed():
        response = upload(client, "games.jsonl", data)
    assert response.status_code == 202
    created = response.json()
    assert (created["status"], created["total"], created["done"]) == ("queued", 0, 0)
    assert created["size"] == len(data)
    assert upload_file_read(Upload.objects.get().pk) == data
    status = client.get(created["url"]).json()
    assert status["status"] == "done" and status["finished_at"]
    assert (status["total"], status["done"], status["failed"], status["duplicates"]) == (4, 4, 1, 1)
    items = status["items"]
    assert [i["label"] for i in items] == ["line 1", "line 2", "line 3", "line 4"]
    assert [i["outcome"] for i in items] == ["stored", "stored", "rejected", "duplicate"]
    assert items[3]["game"] == items[0]["game"]
    assert items[2]["findings"][0]["code"] == "record.json"
    assert [i["verdict"] for i in items] == ["verified", "illegal", None, "verified"]
    assert client.get(items[1]["game_url"]).json()["status"] == "flagged"
    assert Game.objects.count() == 2


@pytest.fixture
def retries_run() -> Iterator[None]:
    """Eager Celery runs a task's retry at once, unless it propagates the retry to the caller."""
    propagates = app.conf.task_eager_propagates
    app.conf.task_eager_propagates = False
    yield
    app.conf.task_eager_propagates = propagates


@pytest.mark.usefixtures("retries_run")
@pytest.mark.parametrize("failing", ["split_file", "_items_create"])
def test_a_split_that_meets_a_database_outage_is_retried_until_the_upload_is_done(
    client_of: Any,
    user: Any,
    record: Any,
    committed: Any,
    monkeypatch: pytest.MonkeyPatch,
    failing: str,
) -> None:
    """The request only stores the file; a worker splits it, and an outage met there (in the
    file itself, then in its items) makes the task retry rather than fail the upload."""
    from uploads import services as uploads

    real = getattr(uploads, failing)
    calls: list[object] = []

    def once(*args: Any) -> Any:
        calls.append(args)
        if len(calls) == 1:
            raise OperationalError("the database went away")
        return real(*args)

    monkeypatch.setattr(uploads, failing, once)
    data = jsonl(record(0), record(1))
    with committed():
        response = upload(client_of(user), "a.jsonl", data)
    assert response.status_code == 202
    assert upload_file_read(Upload.objects.get().pk) == data
    assert len(calls) == 2
    status = client_of(user).get(response.json()["url"]).json()
    assert (status["status"], status["total"], status["done"], status["error"]) == (
        "done",
        2,
        2,
        "",
    )
    assert Game.objects.count() == 2


def test_a_split_that_meets_a_bug_fails_the_upload_and_keeps_its_file(
    client_of: Any, user: Any, record: Any, committed: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from uploads import services as uploads

    def broken(*args: Any) -> Any:
        raise RuntimeError("a bug met in the split")

    monkeypatch.setattr(uploads, "split_file", broken)
    data = jsonl(record(0))
    with pytest.raises(RuntimeError), committed():
        upload(client_of(user), "a.jsonl", data)
    stored = Upload.objects.get()
    assert (stored.status, stored.error) == ("failed", "RuntimeError: a bug met in the split")
    assert upload_file_read(stored.pk) == data


def test_the_same_upload_twice_stores_each_game_once(
    client_of: Any, user: Any, record: Any, committed: Any
) -> None:
    client = client_of(user)
    data = jsonl(record(0), record(1))
    with committed():
        first = upload(client, "a.jsonl", data).json()
        second = upload(client, "a.jsonl", data).json()
    again = client.get(second["url"]).json()
    assert again["duplicates"] == 2
    assert {i["game"] for i in again["items"]} == {
        i["game"] for i in client.get(first["url"]).json()["items"]
    }
    assert Game.objects.count() == GameRecord.objects.count() == 2


def test_a_zip_with_a_broken_member_stores_the_others(
    client_of: Any, user: Any, record: Any, committed: Any
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("club/one.json", text_of(record(0)))
        archive.writestr("club/two.jsonl", jsonl(record(1), record(2)))
        archive.writestr("club/broken.json", b'{"format": "raspis/1", ')
        archive.writestr("readme.txt", b"ignored")
    client = client_of(user)
    with committed():
        response = upload(client, "club.zip", buffer.getvalue())
    status = client.get(response.json()["url"]).json()
    outcomes = {i["label"]: i["outcome"] for i in status["items"]}
    assert outcomes == {
        "club/broken.json record": "rejected",
        "club/one.json record": "stored",
        "club/two.jsonl line 1": "stored",
        "club/two.jsonl line 2": "stored",
    }
    assert Game.objects.count() == 3


def test_a_file_that_is_not_a_zip_is_one_rejected_item(
    client_of: Any, user: Any, committed: Any
) -> None:
    client = client_of(user)
    with committed():
        response = upload(client, "games.zip", b"PK\x03\x04 not really")
    status = client.get(response.json()["url"]).json()
    assert status["status"] == "done" and status["failed"] == 1
    assert status["items"][0]["findings"][0]["code"] == "record.json"


def test_a_zip_without_records_is_one_rejected_item_that_says_so(
    client_of: Any, user: Any, committed: Any
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("readme.txt", b"the records are in another file")
    client = client_of(user)
    with committed():
        response = upload(client, "club.zip", buffer.getvalue())
    status = client.get(response.json()["url"]).json()
    assert (status["status"], status["total"], status["failed"]) == ("done", 1, 1)
    (item,) = status["items"]
    assert (item["label"], item["outcome"]) == ("archive", "rejected")
    assert item["findings"][0]["code"] == "record.json"
    assert item["findings"][0]["message"] == "archive: the zip holds no .json or .jsonl file"


def test_a_json_array_is_split_into_items(
    client_of: Any, user: Any, record: Any, committed: Any
) -> None:
    client = client_of(user)
    data = json.dumps([record(0), 7, record(1)]).encode()
    with committed():
        response = upload(client, "games.json", data)
    items = client.get(response.json()["url"]).json()["items"]
    assert [(i["label"], i["outcome"]) for i in items] == [
        ("item 1", "stored"),
        ("item 2", "rejected"),
        ("item 3", "stored"),
    ]


def test_a_file_of_another_type_is_refused(client_of: Any, user: Any) -> None:
    response = upload(client_of(user), "games.csv", b"a,b")
    assert response.status_code == 400
    (finding,) = findings_of(response)
    assert (finding["code"], finding["path"]) == ("request.invalid", "/file")
    assert not Upload.objects.exists() and not UploadPart.objects.exists()


def test_a_file_is_stored_part_by_part_as_the_request_is_read(
    client_of: Any, user: Any, record: Any, committed: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parts of 500 bytes: the request is read 500 bytes at a time, and each part is stored
    as soon as it is in; the file reads back whole, with its size and hash."""
    from uploads import apis as api
    from uploads import services as uploads

    monkeypatch.setattr(uploads, "PART_SIZE", 500)
    monkeypatch.setattr(api._ToReceiver, "chunk_size", 500)
    data = jsonl(record(0), record(1))
    with committed():
        created = upload(client_of(user), "a.jsonl", data).json()
    stored = Upload.objects.get()
    assert (stored.size, stored.sha256) == (len(data), hashlib.sha256(data).hexdigest())
    assert UploadPart.objects.count() > 1
    assert upload_file_read(stored.pk) == data
    assert client_of(user).get(created["url"]).json()["done"] == 2


def test_an_upload_signed_in_by_session_is_stored_from_the_form_read_for_its_csrf_check(
    user: Any, record: Any, committed: Any
) -> None:
    """The CSRF check reads the form before the view can have the file stored as it comes:
    then it is stored from the form."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    token = "t" * 32  # a CSRF secret, as the cookie holds it
    client.cookies["csrftoken"] = token
    data = jsonl(record(0))
    with committed():
        response = client.post(
            "/api/uploads/",
            {"file": SimpleUploadedFile("a.jsonl", data), "csrfmiddlewaretoken": token},
            format="multipart",
        )
    assert response.status_code == 202, response.content
    assert upload_file_read(Upload.objects.get().pk) == data
    assert Game.objects.count() == 1


def test_a_missing_file_is_refused(client_of: Any, user: Any) -> None:
    response = client_of(user).post("/api/uploads/", {}, format="multipart")
    assert response.status_code == 400
    assert findings_of(response)[0]["path"] == "/file"


def test_a_json_body_instead_of_a_form_is_refused_with_415(client_of: Any, user: Any) -> None:
    response = client_of(user).post("/api/uploads/", {"file": "x"}, format="json")
    assert response.status_code == 415
    assert findings_of(response)[0]["code"] == "request.media_type"


@override_settings(RASPIS_MAX_UPLOAD_BYTES=1000)
def test_an_oversize_file_is_refused_with_413_and_nothing_is_stored(
    client_of: Any, user: Any, record: Any
) -> None:
    response = upload(client_of(user), "games.jsonl", jsonl(record()))
    assert response.status_code == 413
    (finding,) = findings_of(response)
    assert finding["code"] == "request.too_large" and finding["expected"] == 1000
    assert Upload.objects.count() == 0


def test_a_private_upload_makes_private_games(
    client_of: Any, user: Any, record: Any, api_client: APIClient, committed: Any
) -> None:
    with committed():
        response = upload(client_of(user), "a.jsonl", jsonl(record()), visibility="private")
    assert response.json()["visibility"] == "private"
    assert Game.objects.get().visibility == "private"
    assert api_client.get("/api/games/").json()["count"] == 0


def test_users_list_and_read_only_their_own_uploads(
    client_of: Any, user: Any, other_user: Any, staff_user: Any, record: Any
) -> None:
    mine = upload(client_of(user), "a.jsonl", jsonl(record())).json()
    assert [u["id"] for u in client_of(user).get("/api/uploads/").json()["results"]] == [mine["id"]]
    assert client_of(other_user).get("/api/uploads/").json()["results"] == []
    assert client_of(other_user).get(mine["url"]).status_code == 404
    assert client_of(staff_user).get(mine["url"]).status_code == 200


@override_settings(RASPIS_UPLOAD_BATCH_SIZE=2)
def test_progress_is_visible_between_batches_and_a_rerun_skips_done_items(
    client_of: Any, user: Any, record: Any
) -> None:
    client = client_of(user)
    created = upload(client, "a.jsonl", jsonl(record(0), record(1), record(2))).json()
    assert upload_split(upload_id=created["id"], workers=WORKERS) == [0, 1]
    assert upload_process(upload_id=created["id"], batch=0) == 2
    status = client.get(created["url"]).json()
    assert (status["status"], status["total"], status["done"]) == ("running", 3, 2)
    assert upload_process(upload_id=created["id"], batch=0) == 0
    assert upload_split(upload_id=created["id"], workers=WORKERS) == [1]
    assert upload_process(upload_id=created["id"], batch=1) == 1
    assert client.get(created["url"]).json()["status"] == "done"
    assert Game.objects.count() == 3
    assert UploadItem.objects.filter(outcome="pending").count() == 0


def test_a_batch_that_fails_as_a_whole_falls_back_to_one_item_at_a_time(
    client_of: Any, user: Any, record: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from verification.services import store

    created = upload(client_of(user), "a.jsonl", jsonl(record(0), record(1))).json()
    upload_split(upload_id=created["id"], workers=WORKERS)
    real = store._prepare

    def fussy(index: int, entry: Any, sha: str, rulesets: Any) -> Any:
        value, _ = entry.read()
        if value["meta"]["external_id"] == record(1)["meta"]["external_id"]:
            raise RuntimeError("a bug met on this record")
        return real(index, entry, sha, rulesets)

    monkeypatch.setattr(store, "_prepare", fussy)
    upload_process(upload_id=created["id"], batch=0)
    items = list(UploadItem.objects.order_by("index"))
    assert [i.outcome for i in items] == ["stored", "failed"]
    assert items[1].findings[0]["code"] == "server.error"
    status = Upload.objects.get()
    assert (status.status, status.done, status.failed) == ("done", 2, 1)


def test_lines_are_read_from_the_stored_pieces_exactly_as_uploaded(
    client_of: Any, user: Any, record: Any, committed: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With pieces of 97 bytes every record spans dozens of them; the stored record is its
    line, byte for byte, without the byte order mark and the carriage return around it."""
    from uploads import files as upload_files

    monkeypatch.setattr(upload_files, "PART_SIZE", 97)
    first = dict(record(0), players=["Вера\u2028", "Глеб", "Анна", "Борис"])
    lines = [text_of(first), text_of(record(1)), text_of(record(2))]
    data = ("\ufeff" + "\r\n".join(lines) + "\r\n").encode()
    with committed():
        created = upload(client_of(user), "games.jsonl", data, visibility="private").json()
    upload_id = created["id"]
    assert upload_file_read(upload_id) == data
    assert upload_file_read(upload_id, 100, 300) == data[100:300]
    items = UploadItem.objects.filter(upload_id=upload_id).order_by("index")
    assert [(i.outcome, i.text) for i in items] == [("stored", "")] * 3
    stored = [GameRecord.objects.get(game_id=i.game_id).text for i in items]
    assert stored == lines


@pytest.fixture
def mixed(client_of: Any, user: Any, record: Any, committed: Any) -> str:
    """The URL of ``user``'s processed upload of five lines: stored, rejected, stored,
    rejected, stored."""
    data = jsonl(record(0)) + b"not json\n" + jsonl(record(1)) + b"[\n" + jsonl(record(2))
    with committed():
        created = upload(client_of(user), "games.jsonl", data).json()
    url: str = created["url"]
    return url


def test_items_come_a_page_at_a_time_with_links_to_the_neighbouring_pages(
    client_of: Any, user: Any, mixed: str, settings: Any
) -> None:
    settings.RASPIS_UPLOAD_ITEMS_PAGE_SIZE = 2
    client = client_of(user)
    first = client.get(mixed).json()
    assert (first["status"], first["total"], first["items_count"]) == ("done", 5, 5)
    assert [i["index"] for i in first["items"]] == [0, 1]
    assert first["items_previous"] is None
    assert first["items_next"] == f"http://testserver{mixed}?page=2"
    second = client.get(first["items_next"]).json()
    assert [(i["index"], i["label"]) for i in second["items"]] == [(2, "line 3"), (3, "line 4")]
    assert second["items_previous"] == f"http://testserver{mixed}"
    last = client.get(second["items_next"]).json()
    assert [i["outcome"] for i in last["items"]] == ["stored"]
    assert last["items_next"] is None
    assert last["items_previous"] == f"http://testserver{mixed}?page=2"


def test_the_default_page_holds_a_hundred_items(client_of: Any, user: Any, committed: Any) -> None:
    client = client_of(user)
    with committed():
        created = upload(client, "junk.jsonl", b"x\n" * 101).json()
    status = client.get(created["url"]).json()
    assert (status["items_count"], len(status["items"])) == (101, 100)
    assert client.get(status["items_next"]).json()["items"][0]["index"] == 100


def test_the_outcome_filter_selects_the_failed_records_and_the_links_keep_it(
    client_of: Any, user: Any, mixed: str, settings: Any
) -> None:
    settings.RASPIS_UPLOAD_ITEMS_PAGE_SIZE = 1
    client = client_of(user)
    rejected = client.get(mixed, {"outcome": "rejected"}).json()
    assert rejected["items_count"] == 2 and rejected["total"] == 5
    assert [i["label"] for i in rejected["items"]] == ["line 2"]
    assert rejected["items"][0]["findings"][0]["code"] == "record.json"
    assert rejected["items_next"] == f"http://testserver{mixed}?outcome=rejected&page=2"
    assert [i["label"] for i in client.get(rejected["items_next"]).json()["items"]] == ["line 4"]
    assert client.get(mixed, {"outcome": "rejected,stored"}).json()["items_count"] == 5
    none = client.get(mixed, {"outcome": "failed,pending"}).json()
    assert (none["items_count"], none["items"], none["items_next"]) == (0, [], None)


def test_an_unknown_outcome_is_refused_with_a_finding(
    client_of: Any, user: Any, mixed: str
) -> None:
    response = client_of(user).get(mixed, {"outcome": "rejected,lost"})
    assert response.status_code == 400
    (finding,) = findings_of(response)
    assert (finding["code"], finding["path"]) == ("request.invalid", "/outcome")
    assert "lost" in finding["message"]


@pytest.mark.parametrize("page", ["0", "-1", "two", "1.5", "last"])
def test_a_page_that_is_not_a_positive_integer_is_refused_with_a_finding(
    client_of: Any, user: Any, mixed: str, page: str
) -> None:
    response = client_of(user).get(mixed, {"page": page})
    assert response.status_code == 400
    (finding,) = findings_of(response)
    assert (finding["code"], finding["path"]) == ("request.invalid", "/page")


def test_a_page_past_the_last_is_not_found(client_of: Any, user: Any, mixed: str) -> None:
    client = client_of(user)
    assert client.get(mixed, {"page": "1"}).status_code == 200
    response = client.get(mixed, {"page": "2"})
    assert response.status_code == 404
    (finding,) = findings_of(response)
    assert finding["code"] == "request.not_found"
    assert finding["message"] == "page 2 is past the last page"
    assert client.get(mixed, {"outcome": "failed", "page": "2"}).status_code == 404


def test_another_user_cannot_page_through_an_upload_or_learn_it_exists(
    client_of: Any, other_user: Any, mixed: str
) -> None:
    for params in ({}, {"page": "2"}, {"outcome": "lost"}):
        response = client_of(other_user).get(mixed, params)
        assert response.status_code == 404, params
        assert findings_of(response)[0]["message"].startswith("no upload ")


def test_the_schema_describes_the_page_and_its_filter(api_client: APIClient) -> None:
    document = api_client.get("/api/schema/", {"format": "json"}).json()
    detail = document["paths"]["/api/uploads/{upload_id}/"]["get"]
    parameters = {p["name"]: p for p in detail["parameters"]}
    assert parameters["page"]["schema"]["type"] == "integer"
    outcome = parameters["outcome"]
    assert outcome["explode"] is False
    assert set(outcome["schema"]["items"]["enum"]) == {
        "pending",
        "stored",
        "replaced",
        "duplicate",
        "rejected",
        "failed",
    }
    assert {"400", "404"} <= set(detail["responses"])
    output = document["components"]["schemas"]["UploadDetailOutput"]["properties"]
    assert output["items"]["items"]["$ref"] == "#/components/schemas/UploadItem"
    assert output["items_count"]["type"] == "integer"
    assert output["items_next"]["nullable"] and output["items_previous"]["nullable"]


def test_a_failure_while_seat_deal_rows_are_in_flight_leaves_the_connection_usable(
    client_of: Any, user: Any, record: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With chunks of one record, the first record's seat-deal rows are still going in when
    the second one fails: the batch is undone whole and redone item by item."""
    from verification.services import store

    monkeypatch.setattr(store, "WRITE_CHUNK", 1)
    created = upload(client_of(user), "a.jsonl", jsonl(record(0), record(1), record(2))).json()
    upload_split(upload_id=created["id"], workers=WORKERS)
    real = store._prepare
    calls = 0

    def fails_once(index: int, entry: Any, sha: str, rulesets: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("a bug met on the second record")
        return real(index, entry, sha, rulesets)

    monkeypatch.setattr(store, "_prepare", fails_once)
    upload_process(upload_id=created["id"], batch=0)
    items = list(UploadItem.objects.order_by("index"))
    assert [i.outcome for i in items] == ["stored", "stored", "stored"]
    assert Game.objects.count() == 3
    assert SeatDeal.objects.count() == sum(
        len(record(i)["deals"]) * len(record(i)["players"]) for i in range(3)
    )


def escaped_external_id(value: dict[str, Any]) -> str:
    """The record's text with its member ``external_id`` named in escapes, which a batch's
    start does not read from the text (``store._member``)."""
    text = text_of(value)
    assert text.count('"external_id"') == 1
    return text.replace('"external_id"', '"external\\u005fid"')


@pytest.mark.parametrize("hidden", [False, True])
def test_versions_of_one_external_id_in_a_batch_are_one_game_whatever_the_chunks(
    client_of: Any,
    user: Any,
    record: Any,
    illegal_record: Any,
    monkeypatch: pytest.MonkeyPatch,
    hidden: bool,
) -> None:
    """The first and the third record share an external id: with chunks of one record they
    are still written together, the third as the current version, no verdict "changed".
    When the third's text hides its external id from the batch's start, it is read only in
    its own chunk: it then replaces the game the first made, as a later upload would."""
    from verification.services import store

    monkeypatch.setattr(store, "WRITE_CHUNK", 1)
    first = dict(illegal_record, meta={**illegal_record["meta"], "external_id": "club-7"})
    third = dict(record(2), meta={**record(2)["meta"], "external_id": "club-7"})
    last = escaped_external_id(third) if hidden else text_of(third)
    lines = [text_of(first), text_of(record(1)), last]
    created = upload(client_of(user), "a.jsonl", "\n".join(lines).encode()).json()
    upload_split(upload_id=created["id"], workers=WORKERS)
    upload_process(upload_id=created["id"], batch=0)
    items = list(UploadItem.objects.order_by("index"))
    assert [i.outcome for i in items] == ["stored", "stored", "replaced"]
    assert items[0].game_id == items[2].game_id
    game = Game.objects.get(pk=items[0].game_id)
    assert (game.verdict, game.external_id, game.records.count()) == ("verified", "club-7", 2)
    assert Game.objects.count() == 2
    assert VerdictChange.objects.exists() == hidden


def test_a_line_that_is_not_utf8_is_rejected_like_a_body_that_is_not(
    client_of: Any, user: Any, record: Any, committed: Any
) -> None:
    client = client_of(user)
    bad = text_of(record(1)).encode().replace(b'"meta"', b'"m\xffeta"')
    with committed():
        created = upload(client, "g.jsonl", text_of(record(0)).encode() + b"\n" + bad).json()
    items = client.get(created["url"]).json()["items"]
    assert [i["outcome"] for i in items] == ["stored", "rejected"]
    assert items[1]["findings"][0]["message"] == "line 2: not UTF-8 text"
    refused = client.post("/api/games/", bad, content_type="application/json")
    assert (refused.status_code, findings_of(refused)[0]["code"]) == (400, "record.json")


def test_an_external_id_the_batch_start_missed_still_replaces_a_stored_game(
    client_of: Any, user: Any, record: Any, committed: Any
) -> None:
    client = client_of(user)
    older = dict(record(0), meta={**record(0)["meta"], "external_id": "club-8"})
    newer = dict(record(1), meta={**record(1)["meta"], "external_id": "club-8"})
    with committed():
        upload(client, "a.jsonl", jsonl(older))
        created = upload(client, "b.jsonl", escaped_external_id(newer).encode()).json()
    items = client.get(created["url"]).json()["items"]
    assert [i["outcome"] for i in items] == ["replaced"]
    game = Game.objects.get()
    assert (game.external_id, game.records.count()) == ("club-8", 2)
    assert GameRecord.objects.get(current=True).text == escaped_external_id(newer)


def test_two_equal_lines_that_are_not_json_each_name_their_own_line(
    client_of: Any, user: Any, record: Any, committed: Any
) -> None:
    """The second is a copy of the first, which is not read until the batch comes to it."""
    client = client_of(user)
    with committed():
        created = upload(client, "g.jsonl", b"[1, 2\n[1, 2\n" + jsonl(record(0))).json()
    items = client.get(created["url"]).json()["items"]
    assert [i["outcome"] for i in items] == ["rejected", "rejected", "stored"]
    messages = [i["findings"][0]["message"] for i in items[:2]]
    assert messages == ["line 1: not JSON", "line 2: not JSON"]
