"""The verify page in a real browser with rummy and poker records: paste or choose one, see
its verdict, its findings in words at their game's places, and its recomputed table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from replay.poker.simulate import simulate_record as simulate_poker
from replay.rummy.simulate import simulate_game as simulate_rummy
from tests.pages.conftest import PHONE, accept_language, shot, wait_for

pytestmark = pytest.mark.browser


def _submit(browser: Any) -> Any:
    browser.find_element(By.CSS_SELECTOR, "form.verify button[type=submit]").click()
    wait_for(browser, lambda b: "/verify/" in b.current_url)
    return wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, ".verdict-line .verdict"))


def test_a_pasted_rummy_record_shows_its_findings_at_their_turn_and_action(browser: Any) -> None:
    record = simulate_rummy("joker_rummy", 3, 4, corrupt_mode="meld.invalid")
    place = record["meta"]["corruption"]
    browser.get(browser.base + "/")
    box = browser.find_element(By.NAME, "record")
    # Typing a whole record key by key takes seconds; the page reads the box's value.
    browser.execute_script("arguments[0].value = arguments[1]", box, json.dumps(record))
    assert _submit(browser).text == "illegal"
    finding = browser.find_element(By.CSS_SELECTOR, "ol.findings li")
    player = record["players"][place["seat"]]
    assert "deal {deal}, turn {turn}, action {action}".format(**place) in finding.text
    assert f"{player} laid down a meld that is neither a run nor a set" in finding.text
    assert finding.find_element(By.CSS_SELECTOR, "code").text == "meld.invalid"
    deals = browser.find_elements(By.CSS_SELECTOR, "table.rummy-sheet tbody tr")
    assert len(deals) == len(record["deals"])
    assert browser.find_element(By.CSS_SELECTOR, "table.standings tr.winner").is_displayed()
    shot(browser, "verify-rummy-en-desktop")
    shot(browser, "verify-rummy-en-phone", size=PHONE)


def test_a_poker_file_is_verified_in_russian(browser: Any, tmp_path: Path) -> None:
    record = simulate_poker("club_stud", 3, 4, 5)
    record["hands"][0]["stacks"][0] += 1  # a claimed stack the replay does not reach
    path = tmp_path / "poker.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    accept_language(browser, "ru")
    browser.get(browser.base + "/")
    browser.find_element(By.NAME, "file").send_keys(str(path))
    assert _submit(browser).text == "расхождение"
    findings = browser.find_element(By.CSS_SELECTOR, "ol.findings").text
    name = record["seats"][0]["name"]
    assert f"раздача 1: Стек игрока {name}" in findings
    claimed = browser.find_element(By.CSS_SELECTOR, "table.poker-hands td.differs .claimed")
    assert claimed.text == str(record["hands"][0]["stacks"][0])
    shot(browser, "verify-poker-ru-desktop")
