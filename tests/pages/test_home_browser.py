"""The home page in a real browser: paste a record, see its report, stored nowhere."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from games.models import Game
from tests.pages.conftest import PHONE, accept_language, shot, wait_for

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


def test_a_russian_reader_gets_the_report_in_russian(
    browser: Any, make_record: Callable[..., dict[str, Any]]
) -> None:
    accept_language(browser, "ru")
    browser.get(browser.base + "/")
    _paste(browser, json.dumps(make_record(corrupt="wrong_score")))
    verdict = wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, ".verdict-line .verdict"))
    assert verdict.text == "расхождение"
    assert "а в записи" in browser.find_element(By.CSS_SELECTOR, "ol.findings").text
    browser.find_element(By.CSS_SELECTOR, "details summary").click()
    shot(browser, "verify-ru-desktop")
    shot(browser, "verify-ru-phone", size=PHONE)


def test_a_file_dropped_on_the_box_is_verified(
    browser: Any, make_record: Callable[..., dict[str, Any]]
) -> None:
    browser.get(browser.base + "/")
    lines = "\n".join(json.dumps(make_record(seed=s)) for s in (0, 1))
    browser.execute_script(
        """
        const data = new DataTransfer();
        data.items.add(new File([arguments[0]], "games.jsonl", {type: "application/x-ndjson"}));
        const form = document.querySelector("form[data-drop]");
        form.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true}));
        """,
        lines,
    )
    wait_for(browser, lambda b: "/verify/" in b.current_url)
    verdicts = browser.find_elements(By.CSS_SELECTOR, "ol.records .verdict")
    assert [v.text for v in verdicts] == ["verified", "verified"]
    assert len(browser.find_elements(By.CSS_SELECTOR, "[data-replay]")) == 2


def test_the_keyboard_focus_is_visible(browser: Any) -> None:
    browser.get(browser.base + "/")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    body.send_keys(Keys.TAB)
    focused = browser.switch_to.active_element
    outline = browser.execute_script(
        "const s = getComputedStyle(arguments[0]); return [s.outlineStyle, s.outlineWidth]",
        focused,
    )
    assert outline[0] != "none" and outline[1] != "0px", outline
