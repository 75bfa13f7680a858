"""The pages' language in a real browser: the browser's choice, the switch and its cookie."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.pages.conftest import PHONE, accept_language, shot, wait_for

pytestmark = pytest.mark.browser


def _pressed(browser: Any) -> str:
    button = browser.find_element(By.CSS_SELECTOR, "form.language button[aria-pressed=true]")
    return str(button.get_attribute("value"))


def test_the_switch_turns_the_pages_russian_and_the_next_page_stays_russian(
    browser: Any, make_game: Callable[..., int]
) -> None:
    game = make_game(corrupt="revoke")
    browser.get(f"{browser.base}/games/{game}/")
    assert browser.find_element(By.TAG_NAME, "h1").text == f"Game {game}"
    browser.find_element(By.CSS_SELECTOR, "form.language button[value=ru]").click()
    # set_language sends the reader back to the page they were on, now in Russian.
    wait_for(browser, lambda b: b.find_element(By.TAG_NAME, "h1").text == f"Игра {game}")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ru"
    assert _pressed(browser) == "ru"
    finding = browser.find_element(By.CSS_SELECTOR, "ol.findings li").text
    assert "не пошёл (не пошла) в масть" in finding
    shot(browser, "game-ru-desktop")
    shot(browser, "game-ru-phone", size=PHONE)
    browser.find_element(By.CSS_SELECTOR, "ol.findings li a").click()
    wait_for(browser, lambda b: "play=" in b.current_url)
    shot(browser, "game-offending-ru-desktop")
    # The cookie remembers the choice on the next page, whatever the browser asks for.
    browser.get(browser.base + "/games/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Игры"
    shot(browser, "games-ru-desktop")
    shot(browser, "games-ru-phone", size=PHONE)
    browser.get(browser.base + "/")
    assert "Проверить запись сейчас" in browser.page_source
    shot(browser, "home-ru-desktop")
    shot(browser, "home-ru-phone", size=PHONE)
    browser.find_element(By.CSS_SELECTOR, "form.language button[value=en]").click()
    wait_for(browser, lambda b: b.find_element(By.TAG_NAME, "h1").text.startswith("Raspis checks"))


def test_a_russian_browser_gets_russian_pages_with_russian_cards(
    browser: Any, make_game: Callable[..., int]
) -> None:
    game = make_game()
    accept_language(browser, "ru-RU,ru;q=0.9")
    browser.get(f"{browser.base}/games/{game}/?deal=9&trick=1&play=0")
    assert _pressed(browser) == "ru"
    hands = browser.find_element(By.CSS_SELECTOR, "[data-replay] tbody").text
    # Face cards in Russian letters: В Д К Т, never J Q K A.
    assert not any(letter + suit in hands for letter in "JQA" for suit in "♠♣♦♥")
    assert any(letter + suit in hands for letter in "ВДКТ" for suit in "♠♣♦♥")
    accept_language(browser, "en-US,en")
    browser.get(f"{browser.base}/games/{game}/?deal=9&trick=1&play=0")
    hands = browser.find_element(By.CSS_SELECTOR, "[data-replay] tbody").text
    assert not any(letter + suit in hands for letter in "ВДТ" for suit in "♠♣♦♥")
