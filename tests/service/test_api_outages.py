"""A database or broker that is down: a prompt 503 with Retry-After and a finding, no 500."""

from __future__ import annotations

from typing import Any

import kombu.exceptions
import pytest
from django.db import OperationalError

from tests.service.conftest import findings_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "error",
    [OperationalError("server closed the connection"), kombu.exceptions.OperationalError("down")],
)
def test_an_outage_met_by_an_api_view_answers_503_with_retry_after(
    client_of: Any, user: Any, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    from uploads import apis

    def down(**kwargs: Any) -> Any:
        raise error

    monkeypatch.setattr(apis, "upload_list", down)
    response = client_of(user).get("/api/uploads/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert [f["code"] for f in findings_of(response)] == ["server.unavailable"]


def test_an_outage_met_by_a_page_answers_503_in_text(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.contrib.auth import views

    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("the database is starting up")

    monkeypatch.setattr(views.LoginView, "get", down)
    response = client.get("/admin/login/")
    assert (response.status_code, response["Retry-After"]) == (503, "5")
    assert response["Content-Type"].startswith("text/plain")


def test_other_errors_stay_bugs(client_of: Any, user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from uploads import apis

    def broken(**kwargs: Any) -> Any:
        raise ValueError("a bug")

    monkeypatch.setattr(apis, "upload_list", broken)
    with pytest.raises(ValueError, match="a bug"):
        client_of(user).get("/api/uploads/")


def test_an_outage_met_outside_any_view_answers_503_too(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.contrib.sessions.middleware import SessionMiddleware
    from django.test import Client

    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("the database is starting up")

    monkeypatch.setattr(SessionMiddleware, "process_request", down)
    response = Client(raise_request_exception=False).get("/api/uploads/")
    assert (response.status_code, response["Retry-After"]) == (503, "5")
    assert [f["code"] for f in findings_of(response)] == ["server.unavailable"]
