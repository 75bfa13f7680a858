"""The Content-Security-Policy holds every page of the site, the admin and the API docs: no
inline script, no inline style attribute, every inline style block listed by its hash, and
every script, stylesheet and image from the site itself."""

from __future__ import annotations

import base64
import hashlib
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.contrib import admin
from django.test import Client

from games.models import Player
from stats.services import stats_recompute
from tests.service.conftest import store_game

pytestmark = pytest.mark.django_db


class Inline(HTMLParser):
    """What a page holds that a strict policy must allow: inline blocks and outside URLs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.styles: list[str] = []
        self.scripts: list[str] = []
        self.attributes: list[str] = []
        self.urls: list[str] = []
        self._open: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        self.attributes += [f"{tag} {n}" for n, _ in attrs if n == "style" or n.startswith("on")]
        for name in ("src", "href"):
            if named.get(name) and tag in {"script", "link", "img", "iframe"}:
                self.urls.append(str(named[name]))
        if tag == "style" or (tag == "script" and not named.get("src")):
            self._open = (tag, [])

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open is not None and self._open[0] == tag:
            text = "".join(self._open[1])
            (self.styles if tag == "style" else self.scripts).append(text)
            self._open = None


def sha256_source(text: str) -> str:
    digest = hashlib.sha256(text.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def check(response: Any) -> None:
    assert response.status_code == 200, response
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    page = Inline()
    page.feed(response.content.decode())
    assert page.scripts == []
    assert page.attributes == []
    styles = directives["style-src"].split()
    assert [s for s in map(sha256_source, page.styles) if s not in styles] == []
    assert [u for u in page.urls if urlsplit(u).netloc] == []


def test_the_api_docs_and_their_script_are_served_under_the_policy() -> None:
    client = Client()
    page = client.get("/api/docs/")
    check(page)
    script = Inline()
    script.feed(page.content.decode())
    init = next(u for u in script.urls if "script" in u)
    answer = client.get(init)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in answer.content


def test_the_policy_allows_only_the_site_itself() -> None:
    policy = Client().get("/api/docs/")["Content-Security-Policy"]
    # The directives come in no fixed order: read them by name.
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert "unsafe" not in policy
    assert directives["frame-ancestors"] == "'none'"


def test_every_admin_page_is_served_under_the_policy(
    admin_web: Client, user: Any, illegal_record: Any
) -> None:
    game_id = store_game(illegal_record, user)
    check(Client().get("/admin/login/"))
    check(admin_web.get("/admin/"))
    for model in (m for m in apps.get_models() if admin.site.is_registered(m)):
        meta = model._meta
        check(admin_web.get(f"/admin/{meta.app_label}/{meta.model_name}/"))
    check(admin_web.get(f"/admin/games/game/{game_id}/change/"))
    check(admin_web.get(f"/admin/games/game/{game_id}/review/"))
    players = list(Player.objects.values_list("pk", flat=True)[:2])
    merge = admin_web.post("/admin/games/player/", {"action": "merge", "_selected_action": players})
    check(merge)


def test_a_players_admin_page_draws_its_rating_chart_under_the_policy(
    admin_web: Client, reviewer: Any, record: Any
) -> None:
    for i in range(2):
        store_game(record(i), reviewer)  # staff stand behind them: they are rated
    stats_recompute()
    player = Player.objects.filter(seats__game__status="verified").first()
    assert player is not None
    page = admin_web.get(f"/admin/games/player/{player.pk}/change/")
    check(page)
    assert b'<figure class="chart" id="rating-1">' in page.content
