"""The admin's pages that draw figures, in a real browser: the index's dashboard, a player's
statistics and rating chart, and a game's review page, in English and Russian."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from selenium.webdriver.common.by import By

from games.models import Player
from stats.services import stats_recompute
from tests.pages.conftest import PHONE, accept_language, shot
from tests.pages.test_upload_browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def reviewer() -> User:
    return User.objects.create_superuser(username="gleb", password=None)


def test_the_dashboard_player_and_review_pages_draw_their_figures(
    browser: Any, reviewer: User, make_game: Callable[..., int]
) -> None:
    for seed in range(4):
        make_game(seed=seed, by=reviewer)  # staff stand behind them: they are rated
    flagged = make_game(seed=9, corrupt="revoke", by=reviewer)
    stats_recompute()
    sign_in(browser, reviewer)

    browser.get(browser.base + "/admin/")
    dashboard = browser.find_element(By.ID, "dashboard")
    weeks = dashboard.find_element(By.CSS_SELECTOR, "figure.chart svg[role=img]")
    assert weeks.is_displayed() and weeks.size["width"] > 300
    assert len(weeks.find_elements(By.CSS_SELECTOR, "rect.bar")) == 12
    assert "1 game waits for a reviewer" in dashboard.text
    shot(browser, "admin-index-en-desktop")
    shot(browser, "admin-index-en-phone", size=PHONE)

    player = Player.objects.filter(seats__game__status="verified").first()
    assert player is not None
    browser.get(browser.base + f"/admin/games/player/{player.pk}/change/")
    statistics = browser.find_element(By.ID, "statistics")
    line = statistics.find_element(By.CSS_SELECTOR, "figure.chart svg polyline.line")
    assert line.is_displayed()
    assert line.value_of_css_property("fill") == "none"  # the charts' stylesheet holds here too
    shot(browser, "admin-player-en-desktop")

    browser.get(browser.base + f"/admin/games/game/{flagged}/review/")
    replay = browser.find_element(By.CSS_SELECTOR, "#findings + table a.replay")
    assert f"/games/{flagged}/?deal=" in replay.get_attribute("href")
    shot(browser, "admin-review-en-desktop")

    accept_language(browser, "ru")
    browser.get(browser.base + "/admin/")
    assert "Очередь на проверку" in browser.find_element(By.ID, "dashboard").text
    shot(browser, "admin-index-ru-desktop")
    browser.get(browser.base + f"/admin/games/player/{player.pk}/change/")
    assert "Статистика" in browser.find_element(By.ID, "statistics").text
    shot(browser, "admin-player-ru-desktop")
