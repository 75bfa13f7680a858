"""A poker game's replay in a real browser: a button and a key step one action, and the
pot and the bet change as the replay computed them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from replay.poker.simulate import simulate_record
from replay.poker.state import hand_moments
from tests.pages.conftest import PHONE, accept_language, shot, wait_for

pytestmark = pytest.mark.browser


def _pot(browser: Any) -> str:
    return str(browser.find_element(By.CSS_SELECTOR, "[data-field=pot-amount]").text)


def _moment(browser: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(browser.current_url).query)


def test_stepping_an_action_changes_the_pot(browser: Any, make_game: Callable[..., int]) -> None:
    record = simulate_record("club_stud", 4, 4, 3)
    game = make_game(record=record)
    moments = hand_moments(record, 1)
    assert moments is not None
    states = moments.states
    # The first moment whose next action puts chips in, and the one after it.
    i = next(i for i in range(len(states) - 2) if states[i + 1].pot > states[i].pot)
    before, after, then = states[i], states[i + 1], states[i + 2]
    browser.get(f"{browser.base}/games/{game}/?hand=1&stage={before.stage}&action={before.action}")
    shot(browser, "poker-club-en-desktop")
    shot(browser, "poker-club-en-phone", size=PHONE)
    assert _pot(browser) == str(before.pot)
    browser.find_element(By.CSS_SELECTOR, "[data-step=next_action]").click()
    wait_for(browser, lambda b: _pot(b) == str(after.pot))
    assert _moment(browser) == {
        "hand": ["1"],
        "stage": [str(after.stage)],
        "action": [str(after.action)],
    }
    assert after.acted is not None
    row = browser.find_element(By.CSS_SELECTOR, f"tr[data-seat='{after.acted.seat}']")
    assert "next" in (row.get_attribute("class") or "")
    assert row.find_element(By.CSS_SELECTOR, "[data-field=bet]").text == str(
        after.seats[after.acted.seat].bet
    )
    # The arrow key steps the same way as the button.
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait_for(browser, lambda b: _moment(b).get("action") == [str(then.action)])
    assert _pot(browser) == str(then.pot)


def test_a_casino_hand_at_its_end(browser: Any, make_game: Callable[..., int]) -> None:
    game = make_game(record=simulate_record("joker_poker", 3, 3, 2))
    browser.get(f"{browser.base}/games/{game}/?hand=1")
    shot(browser, "poker-casino-en-desktop")
    shot(browser, "poker-casino-en-phone", size=PHONE)
    house = browser.find_element(By.CSS_SELECTOR, "tr.house")
    assert "??" not in house.text
    assert len(house.find_elements(By.CSS_SELECTOR, ".card")) == 5
    accept_language(browser, "ru")
    browser.get(f"{browser.base}/games/{game}/?hand=2&stage=1&action=1")
    shot(browser, "poker-casino-ru-desktop")
    shot(browser, "poker-casino-ru-phone", size=PHONE)
    status = browser.find_element(By.CSS_SELECTOR, "[data-field=status]").text
    assert "Раздача 2 из 3" in status and "этап 1, действие 1" in status
