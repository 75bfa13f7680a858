"""The home page in a real browser: paste a record, see its report, stored nowhere."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from games.models import Game
from tests.pages.conftest import PHONE, shot, wait_for

pytestmark = pytest.mark.browser


def _paste(browser: Any, text: str) -> None:
    box = browser.find_element(By.NAME, "record")
    # Typing a whole record key by key takes seconds; the page reads the box's value.
    browser.execute_script("arguments[0].value = arguments[1]", box, text)
    browser.find_element(By.CSS_SELECTOR, "form.verify button[type=submit]").click()
    wait_for(browser, lambda b: "/verify/" in b.current_url)


def test_a_pasted_record_gets_its_verdict_and_findings_at_once(
    browser: Any, make_record: Callable[..., dict[str, Any]]
) -> None:
    browser.get(browser.base + "/")
    assert "Raspis" in browser.find_element(By.TAG_NAME, "h1").text
    shot(browser, "home-en-desktop")
    shot(browser, "home-en-phone", size=PHONE)
    _paste(browser, json.dumps(make_record(corrupt="revoke")))
    verdict = wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, ".verdict-line .verdict"))
    assert verdict.text == "illegal"
    finding = browser.find_element(By.CSS_SELECTOR, "ol.findings li")
    assert "did not follow suit" in finding.text
    shot(browser, "verify-en-desktop")
    assert Game.objects.count() == 0


def test_a_finding_link_moves_the_replay_to_its_play(
    browser: Any, make_record: Callable[..., dict[str, Any]]
) -> None:
    browser.get(browser.base + "/")
    _paste(browser, json.dumps(make_record(corrupt="revoke")))
    link = wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, "ol.findings li a"))
    where = browser.find_element(By.CSS_SELECTOR, "[data-replay]").get_attribute("data-moment")
    # The replay opens at the first finding's play, which is marked on the table.
    assert where == link.get_attribute("data-moment")
    assert browser.find_elements(By.CSS_SELECTOR, "[data-replay] .played .offending")
    browser.find_element(By.CSS_SELECTOR, "[data-step=next_deal]").click()
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-replay] .played .offending")
    link.click()
    moved = browser.find_element(By.CSS_SELECTOR, "[data-replay]").get_attribute("data-moment")
    assert moved == link.get_attribute("data-moment")
    assert browser.find_elements(By.CSS_SELECTOR, "[data-replay] .played .offending")


def test_text_that_is_no_record_is_malformed_not_an_error(browser: Any) -> None:
    browser.get(browser.base + "/")
    _paste(browser, "{not json")
    verdict = wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, ".verdict-line .verdict"))
    assert verdict.text == "malformed"
    assert "not JSON" in browser.find_element(By.CSS_SELECTOR, "ol.findings").text
