"""POST /api/uploads/ with ``from``: a file of another format, converted before it is split."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from games.models import Game
from uploads.models import Upload
from uploads.services import upload_split
from uploads.tasks import WORKERS

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "importers" / "fixtures"
ROOT = Path(__file__).resolve().parents[2]


def upload(client: APIClient, name: str, data: bytes, **fields: Any) -> Any:
    return client.post(
        "/api/uploads/", {"file": SimpleUploadedFile(name, data), **fields}, format="multipart"
    )


def test_an_openspiel_state_is_converted_and_its_game_stored(
    client_of: Any, user: Any, committed: Any
) -> None:
    client = client_of(user)
    data = (FIXTURES / "openspiel-4p.state.txt").read_bytes()
    with committed():
        response = upload(client, "state.txt", data, **{"from": "openspiel"})
    assert response.status_code == 202, response.content
    status = client.get(response.json()["url"]).json()
    assert (status["total"], status["failed"]) == (1, 0)
    [item] = status["items"]
    assert (item["label"], item["outcome"]) == ("state.txt", "stored")
    game = client.get(item["game_url"]).json()
    assert game["status"] == "verified"
    assert Upload.objects.get().source_format == "openspiel"


def test_a_file_that_gives_no_record_is_one_rejected_item_with_its_finding(
    client_of: Any, user: Any, committed: Any
) -> None:
    client = client_of(user)
    with committed():
        response = upload(client, "bare.csv", b"Anna bid,Anna taken\n1,1\n", **{"from": "sheet"})
    status = client.get(response.json()["url"]).json()
    [item] = status["items"]
    assert item["outcome"] == "rejected"
    assert item["findings"][0]["code"] == "import.source"
    assert Game.objects.count() == 0


def test_a_split_again_from_the_stored_file_converts_it_again(
    client_of: Any, user: Any, committed: Any
) -> None:
    """A worker that splits the stored file (after a failed split) knows its format."""
    client = client_of(user)
    data = (ROOT / "examples" / "sheet-template.csv").read_bytes()
    with committed():
        response = upload(client, "sheet.csv", data, **{"from": "sheet"})
    upload_id = response.json()["id"]
    Upload.objects.filter(pk=upload_id).update(total=2)  # as if an item were still missing
    with committed():
        upload_split(upload_id=upload_id, workers=WORKERS)
    assert client.get(response.json()["url"]).json()["items"][0]["outcome"] == "stored"


@pytest.mark.parametrize(
    ("name", "source"), [("game.jsonl", "sheet"), ("game.csv", ""), ("game.csv", "nope")]
)
def test_a_file_name_that_is_not_of_its_format_is_refused(
    client_of: Any, user: Any, name: str, source: str
) -> None:
    response = upload(client_of(user), name, b"x", **{"from": source})
    assert response.status_code == 400
    paths = {f["path"] for f in response.json()["findings"]}
    assert paths & {"/file", "/from"}
    assert Upload.objects.count() == 0


def test_the_schema_documents_from_with_its_formats() -> None:
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    body = schema["paths"]["/api/uploads/"]["post"]["requestBody"]["content"]
    ref = body["multipart/form-data"]["schema"]["$ref"].rsplit("/", 1)[1]
    field = schema["components"]["schemas"][ref]["properties"]["from"]
    assert "import.*" in field["description"]
    formats = schema["components"]["schemas"]["FromEnum"]["enum"]
    assert formats == ["ohw", "openspiel", "sheet"]


def test_a_converted_file_past_the_records_limit_fails_its_upload(
    client_of: Any, user: Any, committed: Any, settings: Any
) -> None:
    """The games an importer makes count against ``RASPIS_MAX_UPLOAD_RECORDS`` as records do."""
    settings.RASPIS_MAX_UPLOAD_RECORDS = 0
    client = client_of(user)
    data = (FIXTURES / "openspiel-4p.state.txt").read_bytes()
    with committed():
        response = upload(client, "state.txt", data, **{"from": "openspiel"})
    status = client.get(response.json()["url"]).json()
    assert (status["status"], status["error"]) == ("failed", "more records than the 0 accepted")
    assert Game.objects.count() == 0


def test_a_workbook_that_unpacks_past_the_limit_fails_its_upload(
    client_of: Any, user: Any, committed: Any, settings: Any
) -> None:
    """A workbook is a zip: it is held to ``RASPIS_MAX_UNPACKED_BYTES`` before it is read."""
    settings.RASPIS_MAX_UNPACKED_BYTES = 1024 * 1024
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/sharedStrings.xml", b" " * (2 * 1024 * 1024))
    client = client_of(user)
    with committed():
        response = upload(client, "club.xlsx", buffer.getvalue(), **{"from": "sheet"})
    status = client.get(response.json()["url"]).json()
    assert (status["status"], status["error"]) == (
        "failed",
        f"more unpacked bytes than the {1024 * 1024} accepted",
    )
    assert Game.objects.count() == 0
