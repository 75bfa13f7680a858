"""The games list in a real browser: its filter form narrows the list and pages keep it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.pages.conftest import PHONE, shot, wait_for

pytestmark = pytest.mark.browser


def test_the_filter_form_narrows_the_list_to_one_verdict(
    browser: Any, make_game: Callable[..., int]
) -> None:
    make_game()
    illegal = make_game(corrupt="revoke")
    browser.get(browser.base + "/games/")
    rows = browser.find_elements(By.CSS_SELECTOR, "table.games tbody tr")
    assert len(rows) == 2
    shot(browser, "games-en-desktop")
    shot(browser, "games-en-phone", size=PHONE)
    Select(browser.find_element(By.NAME, "verdict")).select_by_value("illegal")
    browser.find_element(By.CSS_SELECTOR, "form.filters button[type=submit]").click()
    wait_for(browser, lambda b: "verdict=illegal" in b.current_url)
    rows = browser.find_elements(By.CSS_SELECTOR, "table.games tbody tr")
    assert [r.find_element(By.TAG_NAME, "a").text for r in rows] == [str(illegal)]
    # The form shows the filter it applied.
    chosen = Select(browser.find_element(By.NAME, "verdict")).first_selected_option
    assert chosen.get_attribute("value") == "illegal"
    rows[0].find_element(By.TAG_NAME, "a").click()
    wait_for(browser, lambda b: b.find_element(By.TAG_NAME, "h1").text == f"Game {illegal}")


def test_an_unknown_page_is_the_sites_own_404(browser: Any) -> None:
    browser.get(browser.base + "/games/999999/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Not found"
    assert browser.find_element(By.CSS_SELECTOR, "header nav")
    shot(browser, "not-found-en-desktop")
