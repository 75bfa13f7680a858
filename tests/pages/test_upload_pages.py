"""``/uploads/new/`` and ``/uploads/<id>/``: send a file of records, then see what became of
each record; the upload is its uploader's and staff's."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.shortcuts import resolve_url
from django.test import Client

from games.models import Game
from tests.service.conftest import committed  # noqa: F401  (a fixture)
from uploads.models import Upload

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def jsonl(*records: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


@pytest.fixture
def sent(
    user: Any,
    make_record: Callable[..., dict[str, Any]],
    committed: Any,  # noqa: F811
) -> tuple[Client, Upload]:
    """Anna's upload of a legal game, an illegal one, a line that is no JSON, and the legal
    game again, verified by the workers (eagerly)."""
    client = signed_in(user)
    data = jsonl(make_record(seed=1), make_record(seed=2, corrupt="revoke"))
    data += b"{not json\n" + jsonl(make_record(seed=1))
    with committed():
        response = client.post(
            "/uploads/new/",
            {"file": SimpleUploadedFile("club.jsonl", data), "visibility": "public"},
        )
    upload = Upload.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/uploads/{upload.pk}/"
    return client, upload


def test_the_form_needs_a_signed_in_user(client: Client) -> None:
    response = client.get("/uploads/new/")
    assert response.status_code == 302
    assert response["Location"] == f"{resolve_url(settings.LOGIN_URL)}?next=/uploads/new/"
    assert client.get("/uploads/1/").status_code == 302


def test_the_form_asks_for_a_file_its_kind_and_its_visibility(user: Any) -> None:
    page = signed_in(user).get("/uploads/new/").content.decode()
    accept = re.search(r'<input type="file" name="file"[^>]*accept="([^"]*)"', page)
    assert accept is not None
    assert set(accept.group(1).split(",")) >= {".json", ".jsonl", ".zip", ".csv", ".xlsx", ".txt"}
    assert 'name="visibility"' in page and "data-drop" in page
    kinds = re.findall(
        r'<option value="(\w*)"', page.split('name="source"')[1].split("</select>")[0]
    )
    assert kinds == ["", "ohw", "openspiel", "sheet"]


def test_an_upload_shows_its_counts_per_outcome_and_verdict(sent: tuple[Client, Upload]) -> None:
    client, upload = sent
    assert (upload.status, upload.total, upload.done) == ("done", 4, 4)
    page = client.get(f"/uploads/{upload.pk}/").content.decode()
    assert "Done: all 4 records verified." in page
    assert '<progress id="upload-progress" max="4" value="4">' in page
    counts = dict(re.findall(r'<tr class="outcome-(\w+)">.*?<td class="num">(\d+)</td>', page))
    assert counts == {"stored": "2", "duplicate": "1", "rejected": "1"}
    for verdict in ("illegal", "verified"):
        link = f'href="/games/?upload={upload.pk}&amp;verdict={verdict}"'
        assert re.search(rf'{re.escape(link)}>{verdict}</a></th><td class="num">1</td>', page)


def test_a_rejected_record_shows_its_findings(sent: tuple[Client, Upload]) -> None:
    client, upload = sent
    page = client.get(f"/uploads/{upload.pk}/").content.decode()
    rejected = page[page.index('id="rejected"') :]
    assert "1 record was not stored" in rejected
    assert re.search(r'<li id="item-2"><strong>line 3</strong> \(rejected\)', rejected)
    assert "JSON" in rejected[: rejected.index("</li>")]


def test_the_flagged_games_link_lists_the_uploads_illegal_game(sent: tuple[Client, Upload]) -> None:
    client, upload = sent
    page = client.get("/games/", {"upload": upload.pk, "verdict": "illegal"}).content.decode()
    assert len(re.findall(r'<a href="/games/\d+/">', page)) == 1
    assert f'The games of <a href="/uploads/{upload.pk}/">upload {upload.pk}</a>.' in page
    assert f'<input type="hidden" name="upload" value="{upload.pk}">' in page


def test_the_status_fragment_says_when_the_upload_is_finished(sent: tuple[Client, Upload]) -> None:
    client, upload = sent
    response = client.get(f"/uploads/{upload.pk}/status/")
    assert response["Cache-Control"] == "no-store"
    fragment = response.content.decode()
    assert 'data-finished="true"' in fragment and "<html" not in fragment
    Upload.objects.filter(pk=upload.pk).update(status="running", done=1)
    running = client.get(f"/uploads/{upload.pk}/status/").content.decode()
    assert 'data-finished="false"' in running
    assert "The workers are verifying the records: 1 of 4." in running


def test_another_user_cannot_see_an_upload_but_staff_can(
    sent: tuple[Client, Upload], other_user: Any, staff_user: Any
) -> None:
    _, upload = sent
    for url in (f"/uploads/{upload.pk}/", f"/uploads/{upload.pk}/status/"):
        assert signed_in(other_user).get(url).status_code == 404
        assert signed_in(staff_user).get(url).status_code == 200


def test_a_file_of_another_type_is_refused_and_nothing_is_stored(user: Any) -> None:
    response = signed_in(user).post(
        "/uploads/new/", {"file": SimpleUploadedFile("games.csv", b"a,b"), "visibility": "public"}
    )
    assert response.status_code == 400
    assert "The file must be .json, .jsonl or .zip." in response.content.decode()
    assert Upload.objects.count() == 0


def test_a_score_sheet_is_read_by_its_importer_and_stored(
    user: Any,
    committed: Any,  # noqa: F811
) -> None:
    client = signed_in(user)
    sheet = (Path(settings.BASE_DIR) / "examples" / "sheet-template.csv").read_bytes()
    refused = client.post(
        "/uploads/new/",
        {"source": "sheet", "file": SimpleUploadedFile("s.json", sheet), "visibility": "public"},
    )
    assert refused.status_code == 400
    assert "A file of this kind must end in .csv, .xlsx." in refused.content.decode()
    with committed():
        client.post(
            "/uploads/new/",
            {"source": "sheet", "file": SimpleUploadedFile("s.csv", sheet), "visibility": "public"},
        )
    upload = Upload.objects.get()
    assert upload.source_format == "sheet"
    assert Game.objects.count() == 1
    assert "1 of 1 records" in client.get("/uploads/new/").content.decode()


def test_a_private_upload_makes_private_games(
    user: Any,
    make_record: Callable[..., dict[str, Any]],
    committed: Any,  # noqa: F811
) -> None:
    client = signed_in(user)
    with committed():
        client.post(
            "/uploads/new/",
            {"file": SimpleUploadedFile("one.json", jsonl(make_record())), "visibility": "private"},
        )
    upload = Upload.objects.get()
    assert (
        "Its games are seen only by you and the reviewers."
        in client.get(f"/uploads/{upload.pk}/").content.decode()
    )
    assert Game.objects.get().visibility == "private"


def test_the_form_lists_the_readers_latest_uploads(sent: tuple[Client, Upload]) -> None:
    client, upload = sent
    page = client.get("/uploads/new/").content.decode()
    assert f'<a href="/uploads/{upload.pk}/">Upload {upload.pk}: club.jsonl</a>' in page
    assert "4 of 4 records" in page


def test_the_form_counts_its_uploads_with_the_apis_upload_rate(
    user: Any, make_record: Callable[..., dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.throttles import WriteThrottle

    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"upload": "1/hour"})
    client = signed_in(user)

    def send() -> Any:
        file = SimpleUploadedFile("one.jsonl", jsonl(make_record()))
        return client.post("/uploads/new/", {"file": file, "visibility": "public"})

    assert send().status_code == 302
    refused = send()
    assert refused.status_code == 429
    assert "Too many uploads" in refused.content.decode()
    assert Upload.objects.count() == 1
