"""Accounts, a player's charts, a head to head and a leaderboard in a real browser, in English
and Russian, at desktop and phone widths."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from games.models import Player
from stats.models import Rating
from tests.conftest import PASSWORD
from tests.pages.conftest import PHONE, accept_language, shot, wait_for
from tests.stats.conftest import store_records, won_by

pytestmark = pytest.mark.browser

ORDERS = [
    ("Anna", "Boris", "Vera"),
    ("Anna", "Vera", "Boris"),
    ("Boris", "Anna", "Vera"),
    ("Anna", "Boris", "Vera"),
    ("Vera", "Anna", "Boris"),
    ("Anna", "Boris", "Vera"),
    ("Boris", "Anna", "Gleb"),
    ("Anna", "Gleb", "Boris"),
]


@pytest.fixture
def season(settings: Any) -> None:
    """Eight games in 2025; Vera has six, Gleb two. Five games list a player, and σ between
    Vera's and Anna's ranks one, so that Vera is provisional."""
    store_records(
        [won_by(*order, f"2025-{1 + i:02d}-10T20:00:00Z") for i, order in enumerate(ORDERS)]
    )
    sigma = dict(Rating.objects.values_list("player__name", "sigma"))
    settings.RASPIS_LEADERBOARD_MIN_GAMES = 5
    settings.RASPIS_LEADERBOARD_MAX_SIGMA = (sigma["Anna"] + sigma["Vera"]) / 2
    settings.RASPIS_LEADERBOARD_ACTIVE_DAYS = 36500


def _sign_in(browser: Any, username: str) -> None:
    browser.get(browser.base + "/accounts/login/")
    browser.find_element(By.NAME, "username").send_keys(username)
    browser.find_element(By.NAME, "password").send_keys(PASSWORD, Keys.ENTER)
    wait_for(browser, lambda b: b.current_url.endswith("/accounts/"))


def test_signing_up_then_out_and_in_again(browser: Any) -> None:
    browser.get(browser.base + "/")
    browser.find_element(By.LINK_TEXT, "Sign in").click()
    wait_for(browser, lambda b: "/accounts/login/" in b.current_url)
    browser.find_element(By.LINK_TEXT, "Sign up").click()
    wait_for(browser, lambda b: "/accounts/signup/" in b.current_url)
    shot(browser, "signup-en-desktop")
    browser.find_element(By.NAME, "username").send_keys("Vera")
    browser.find_element(By.NAME, "password1").send_keys(PASSWORD)
    # The keyboard alone: type, Tab to the next field, Enter to send.
    browser.switch_to.active_element.send_keys(Keys.TAB, PASSWORD, Keys.ENTER)
    # Back where signing in began, signed in; the name in the header leads to the account.
    wait_for(browser, lambda b: b.current_url == b.base + "/")
    browser.find_element(By.CSS_SELECTOR, ".account a").click()
    token = wait_for(browser, lambda b: b.find_element(By.ID, "token")).text
    assert len(token) == 40
    shot(browser, "account-en-desktop")
    shot(browser, "account-en-phone", size=PHONE)
    browser.find_element(By.CSS_SELECTOR, ".account button[type=submit]").click()
    wait_for(browser, lambda b: b.find_elements(By.LINK_TEXT, "Sign in"))
    _sign_in(browser, "Vera")
    assert browser.find_element(By.ID, "token").text == token
    browser.find_element(By.XPATH, "//button[text()='Make a new token']").click()
    renewed = wait_for(browser, lambda b: b.find_element(By.ID, "token").text != token and b)
    assert len(renewed.find_element(By.ID, "token").text) == 40


def test_a_players_charts_and_head_to_head(browser: Any, season: None) -> None:
    anna = Player.objects.get(name="Anna").pk
    browser.get(f"{browser.base}/players/{anna}/")
    charts = browser.find_elements(By.CSS_SELECTOR, "figure.chart svg[role=img]")
    assert len(charts) == 5
    for chart in charts:
        assert chart.is_displayed() and chart.size["width"] > 300
    assert browser.find_elements(By.CSS_SELECTOR, "#rating polyline.line")
    assert browser.find_elements(By.CSS_SELECTOR, "#difference rect.bar.marked")
    # The figures of a chart open from the keyboard.
    summary = browser.find_element(By.CSS_SELECTOR, "#difference summary")
    browser.execute_script("arguments[0].focus()", summary)
    summary.send_keys(Keys.ENTER)
    table = browser.find_element(By.CSS_SELECTOR, "#difference table")
    assert table.is_displayed() and "Deals" in table.text
    shot(browser, "player-en-desktop")
    shot(browser, "player-en-phone", size=PHONE)
    width = browser.execute_script("return document.documentElement.scrollWidth")
    browser.find_element(By.PARTIAL_LINK_TEXT, "Anna – Boris").click()
    wait_for(browser, lambda b: "/vs/" in b.current_url)
    assert "Who finished above whom" in browser.page_source
    shot(browser, "versus-en-desktop")
    accept_language(browser, "ru")
    browser.get(f"{browser.base}/players/{anna}/")
    assert browser.find_element(By.CSS_SELECTOR, "#rating figcaption").text == (
        "Рейтинг со временем"
    )
    shot(browser, "player-ru-desktop")
    shot(browser, "player-ru-phone", size=PHONE)
    browser.find_element(By.PARTIAL_LINK_TEXT, "Anna – Boris").click()
    wait_for(browser, lambda b: "/vs/" in b.current_url)
    shot(browser, "versus-ru-phone", size=PHONE)
    assert width <= 1280


def test_a_leaderboard_marks_the_provisional_and_tells_a_player_what_they_miss(
    browser: Any, season: None, django_user_model: Any
) -> None:
    django_user_model.objects.create_user(username="Vera", password=PASSWORD)
    browser.get(browser.base + "/")
    browser.find_element(By.LINK_TEXT, "Leaderboards").click()
    browser.find_element(By.LINK_TEXT, "classic").click()
    wait_for(browser, lambda b: b.current_url.endswith("/leaderboards/classic/"))
    rows = browser.find_elements(By.CSS_SELECTOR, "table.board tbody tr")
    assert [r.find_element(By.CSS_SELECTOR, "th").text for r in rows] == ["Anna", "Boris", "Vera"]
    assert rows[2].get_attribute("class") == "provisional"
    mark = rows[2].find_element(By.CSS_SELECTOR, ".provisional-mark")
    assert mark.text == "?" and "Provisional" in mark.get_attribute("title")
    shot(browser, "leaderboard-en-desktop")
    _sign_in(browser, "Vera")
    browser.get(browser.base + "/leaderboards/classic/")
    standing = browser.find_element(By.CSS_SELECTOR, ".standing").text
    assert "Your rating is still provisional: about" in standing
    shot(browser, "leaderboard-en-phone", size=PHONE)
    accept_language(browser, "ru")
    browser.get(browser.base + "/leaderboards/classic/")
    assert (
        "Ваш рейтинг пока предварительный"
        in browser.find_element(By.CSS_SELECTOR, ".standing").text
    )
    shot(browser, "leaderboard-ru-desktop")
    shot(browser, "leaderboard-ru-phone", size=PHONE)
