"""A rummy game's replay in a real browser: the keys and the links step it turn by turn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from replay.rummy.simulate import simulate_game
from replay.rummy.state import state_after
from tests.pages.conftest import PHONE, accept_language, shot, wait_for

pytestmark = pytest.mark.browser


def _moment(browser: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(browser.current_url).query)


def _pile(browser: Any) -> str:
    return str(browser.find_element(By.CSS_SELECTOR, "[data-rummy-replay] [data-field=pile]").text)


def _top(record: dict[str, Any], deal: int, turn: int) -> str | None:
    state, _, _ = state_after(record, deal, turn)
    assert state is not None
    return state.pile_top


def test_a_key_and_a_link_step_a_turn_and_the_pile_s_top_changes(
    browser: Any, make_game: Callable[..., int]
) -> None:
    record = simulate_game("joker_rummy", 3, 1, corrupt_mode="meld.invalid")
    where = record["meta"]["corruption"]
    # A turn whose next two discards each change the pile's top.
    turn = next(
        t
        for t in range(1, len(record["deals"][0]["turns"]) - 2)
        if len({_top(record, 1, t + k) for k in range(3)}) == 3
    )
    game = make_game(record=record)
    browser.get(f"{browser.base}/games/{game}/?deal=1&turn={turn}")
    first = _pile(browser)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    wait_for(browser, lambda b: _moment(b).get("turn") == [str(turn + 1)])
    second = wait_for(browser, lambda b: _pile(b) if _pile(b) != first else None)
    assert "Pile" in second
    browser.find_element(By.CSS_SELECTOR, "[data-step=next_turn]").click()
    wait_for(browser, lambda b: _moment(b).get("turn") == [str(turn + 2)])
    assert _pile(browser) not in (first, second)
    # And back, with the key the other way.
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    wait_for(browser, lambda b: _moment(b).get("turn") == [str(turn + 1)])
    assert _pile(browser) == second
    # A finding's link opens its turn.
    browser.get(f"{browser.base}/games/{game}/")
    browser.find_element(By.CSS_SELECTOR, "ol.findings a").click()
    wait_for(browser, lambda b: _moment(b).get("turn") == [str(where["turn"])])
    notes = browser.find_element(By.CSS_SELECTOR, "[data-rummy-replay] .notes").text
    assert f"turn {where['turn']}, action {where['action']}" in notes
    shot(browser, "rummy-en-desktop")
    shot(browser, "rummy-en-phone", size=PHONE)
    accept_language(browser, "ru")
    browser.get(browser.current_url.partition("#")[0])
    assert "Сброс" in _pile(browser)
    shot(browser, "rummy-ru-phone", size=PHONE)
