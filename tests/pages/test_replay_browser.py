"""A game's replay in a real browser: buttons, arrow keys, deep links, the address following."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.pages.conftest import PHONE, shot, wait_for

pytestmark = pytest.mark.browser


def _moment(browser: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(browser.current_url).query)


def _table(browser: Any) -> list[str]:
    """What the table shows, seat by seat: the row's text."""
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-replay] tr[data-seat]")
    return [row.text for row in rows]


def _status(browser: Any) -> str:
    return str(browser.find_element(By.CSS_SELECTOR, "[data-replay] [data-field=status]").text)


def test_buttons_and_arrow_keys_step_the_table_and_the_address_follows(
    browser: Any, make_game: Callable[..., int]
) -> None:
    game = make_game(corrupt="revoke")
    browser.get(f"{browser.base}/games/{game}/")
    shot(browser, "game-en-desktop")
    shot(browser, "game-en-phone", size=PHONE)
    assert "before the first play" in _status(browser)
    browser.find_element(By.CSS_SELECTOR, "[data-step=next_play]").click()
    assert _moment(browser) == {"deal": ["1"], "trick": ["1"], "play": ["1"]}
    assert browser.find_elements(By.CSS_SELECTOR, "[data-replay] .played .card")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.PAGE_DOWN)
    body.send_keys(Keys.PAGE_DOWN)
    assert _moment(browser) == {"deal": ["3"], "trick": ["1"], "play": ["0"]}
    body.send_keys(Keys.ARROW_DOWN)
    body.send_keys(Keys.ARROW_DOWN)
    assert _moment(browser) == {"deal": ["3"], "trick": ["2"]}
    body.send_keys(Keys.ARROW_LEFT)
    assert _moment(browser) == {"deal": ["3"], "trick": ["2"], "play": ["3"]}
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_UP)
    assert _moment(browser) == {"deal": ["3"], "trick": ["1"]}
    stepped, status = _table(browser), _status(browser)
    # The address the steps left is the same moment when the server renders it.
    browser.get(browser.current_url)
    assert (_table(browser), _status(browser)) == (stepped, status)


def test_a_deep_link_opens_the_table_at_that_moment_without_javascript(
    browser: Any, make_game: Callable[..., int]
) -> None:
    game = make_game()
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(f"{browser.base}/games/{game}/?deal=3&trick=2&play=1")
        assert "Deal 3 of" in _status(browser)
        assert "trick 2 of 3, play 1 of 4" in _status(browser)
        played = browser.find_elements(By.CSS_SELECTOR, "[data-replay] .played .card")
        assert len(played) == 1
        # Without the script the buttons are links to the next moment.
        browser.find_element(By.CSS_SELECTOR, "[data-step=next_play]").click()
        wait_for(browser, lambda b: "play 2 of 4" in _status(b))
        assert "play=2" in browser.current_url
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def test_the_offending_play_is_marked_and_explained_where_it_happens(
    browser: Any, make_game: Callable[..., int]
) -> None:
    game = make_game(corrupt="revoke")
    browser.get(f"{browser.base}/games/{game}/")
    browser.find_element(By.CSS_SELECTOR, "ol.findings li a").click()
    wait_for(browser, lambda b: "play=" in b.current_url)
    marked = browser.find_elements(By.CSS_SELECTOR, "[data-replay] .played .offending")
    assert len(marked) == 1
    notes = browser.find_element(By.CSS_SELECTOR, "[data-replay] [data-field=notes]").text
    assert "did not follow suit" in notes
    shot(browser, "game-offending-en-desktop")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-replay] .played .offending")


def test_the_script_shows_each_moment_as_the_server_renders_it(
    browser: Any, make_game: Callable[..., int]
) -> None:
    """The script's table is web/replays.py's, step by step through a deal with jokers."""
    game = make_game(ruleset="joker54", players=5, corrupt="revoke")
    browser.get(f"{browser.base}/games/{game}/?deal=3&trick=1&play=0")
    body = browser.find_element(By.TAG_NAME, "body")
    stepped = []
    while _moment(browser).get("deal") == ["3"]:
        notes = browser.find_element(By.CSS_SELECTOR, "[data-replay] [data-field=notes]").text
        stepped.append((browser.current_url, _status(browser), _table(browser), notes))
        body.send_keys(Keys.ARROW_RIGHT)
    assert len(stepped) == 1 + 3 * 5
    for url, status, table, notes in stepped:
        browser.get(url)
        rendered = browser.find_element(By.CSS_SELECTOR, "[data-replay] [data-field=notes]").text
        assert (_status(browser), _table(browser), rendered) == (status, table, notes), url
