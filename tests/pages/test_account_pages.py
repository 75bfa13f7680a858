"""Sign up, sign in and out, and the account page's API token, on the server."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def token_on(html: str) -> str:
    match = re.search(r'<code class="token" id="token">(\w+)</code>', html)
    assert match, html
    return match.group(1)


def test_signing_up_makes_the_account_and_signs_in(client: Client, django_user_model: Any) -> None:
    form = {"username": "Daria", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/accounts/signup/", form)
    assert (response.status_code, response["Location"]) == (302, "/accounts/")
    assert django_user_model.objects.filter(username="Daria").exists()
    html = client.get("/accounts/").content.decode()
    assert "Daria" in html
    assert Token.objects.get(user__username="Daria").key == token_on(html)


def test_sign_up_goes_on_to_a_page_of_this_site_only(client: Client) -> None:
    form = {"username": "Egor", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/accounts/signup/?next=/leaderboards/", form)
    assert response["Location"] == "/leaderboards/"
    client.logout()
    form["username"] = "Zoya"
    response = client.post("/accounts/signup/?next=https://elsewhere.example/", form)
    assert response["Location"] == "/accounts/"


def test_a_bad_sign_up_is_refused_with_the_reasons_in_the_readers_language(
    client: Client, user: Any
) -> None:
    form = {"username": "anna", "password1": "short", "password2": "other"}
    response = client.post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    html = response.content.decode()
    assert "Зарегистрироваться" in html and 'role="alert"' in html


def test_signing_in_and_out(client: Client, user: Any) -> None:
    response = client.post("/accounts/login/", {"username": "anna", "password": PASSWORD})
    assert (response.status_code, response["Location"]) == (302, "/accounts/")
    assert client.get("/accounts/").status_code == 200
    response = client.post("/accounts/logout/")
    assert (response.status_code, response["Location"]) == (302, "/")
    assert client.get("/accounts/")["Location"] == "/accounts/login/?next=/accounts/"


def test_a_wrong_password_is_refused(client: Client, user: Any) -> None:
    response = client.post("/accounts/login/", {"username": "anna", "password": "wrong"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_the_login_page_stops_guessing_as_the_api_does(
    client: Client, user: Any, settings: Any
) -> None:
    """Past ``RASPIS_LOGIN_THROTTLE`` failures even the right password is refused, with the
    wait in words; the API's token route counts the same failures."""
    settings.RASPIS_LOGIN_THROTTLE = "3/hour"
    for _ in range(3):
        client.post("/accounts/login/", {"username": "anna", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "anna", "password": PASSWORD})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "Too many failed sign-ins" in response.content.decode()
    token = client.post("/api/auth/token/", {"username": "anna", "password": PASSWORD})
    assert token.status_code == 429


def test_a_new_token_replaces_the_old_one_for_the_api(client: Client, user: Any) -> None:
    client.force_login(user)
    old = token_on(client.get("/accounts/").content.decode())
    assert client.get("/api/uploads/", HTTP_AUTHORIZATION=f"Token {old}").status_code == 200
    assert client.get("/accounts/token/").status_code == 405
    response = client.post("/accounts/token/")
    assert response["Location"] == "/accounts/"
    new = token_on(client.get("/accounts/").content.decode())
    assert new != old
    api = Client()
    assert api.get("/api/uploads/", HTTP_AUTHORIZATION=f"Token {old}").status_code == 401
    assert api.get("/api/uploads/", HTTP_AUTHORIZATION=f"Token {new}").status_code == 200


def test_the_account_pages_need_an_account(client: Client) -> None:
    assert client.get("/accounts/")["Location"] == "/accounts/login/?next=/accounts/"
    response = client.post("/accounts/token/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
