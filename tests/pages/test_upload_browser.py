"""Uploading a file in a real browser: sign up, choose the file, watch the progress bar
reach the end while the workers verify, and see the counts, in English and in Russian.

With a broker configured (``CELERY_BROKER_URL``, as ``.ci/run`` sets it) a real worker
verifies the batches, so the page really waits for it; without one, Celery runs the tasks
in the web process and the page opens finished.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.test import Client
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from config.celery import app
from tests.conftest import PASSWORD
from tests.pages.conftest import PHONE, accept_language, shot, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORDS = 60


@pytest.fixture
def worker() -> Iterator[None]:
    """A real Celery worker while the test runs, when there is a broker to reach it."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        yield
        return
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        yield


@pytest.fixture
def club_file(tmp_path: Path, make_record: Callable[..., dict[str, Any]]) -> Path:
    """A JSON Lines file: legal games, five with a revoke, and one line that is no JSON."""
    lines = [json.dumps(make_record(seed=i)) for i in range(RECORDS - 6)]
    lines += [json.dumps(make_record(seed=100 + i, corrupt="revoke")) for i in range(5)]
    lines.insert(10, "{this line is not a record")
    path = tmp_path / "club.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def sign_in(browser: Any, user: Any) -> None:
    """The browser signed in as ``user``: a session made on the server, given as its cookie."""
    client = Client()
    client.force_login(user)
    browser.get(browser.base + "/")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    browser.add_cookie({"name": settings.SESSION_COOKIE_NAME, "value": cookie, "path": "/"})


def test_an_upload_shows_its_progress_to_the_end_then_its_counts(
    browser: Any, club_file: Path, worker: None, settings: Any
) -> None:
    """A visitor signs up on the way to the form (the form sends them to sign in first)."""
    settings.RASPIS_UPLOAD_BATCH_SIZE = 10  # several batches, so that progress moves
    browser.get(browser.base + "/uploads/new/")
    wait_for(browser, lambda b: "/accounts/login/" in b.current_url)
    browser.find_element(By.LINK_TEXT, "Sign up").click()
    wait_for(browser, lambda b: "/accounts/signup/" in b.current_url)
    browser.find_element(By.NAME, "username").send_keys("Organiser")
    browser.find_element(By.NAME, "password1").send_keys(PASSWORD)
    browser.find_element(By.NAME, "password2").send_keys(PASSWORD, Keys.ENTER)
    wait_for(browser, lambda b: "/accounts/signup/" not in b.current_url)
    browser.get(browser.base + "/uploads/new/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Upload a file of records"
    shot(browser, "upload-new-en-desktop")
    shot(browser, "upload-new-en-phone", size=PHONE)
    browser.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(club_file))
    browser.find_element(By.CSS_SELECTOR, "form.upload button[type=submit]").click()

    wait_for(browser, lambda b: "/uploads/" in b.current_url and "/new/" not in b.current_url)
    seen = []

    def finished(b: Any) -> bool:
        bar = b.find_element(By.ID, "upload-progress")
        seen.append((int(bar.get_attribute("value")), int(bar.get_attribute("max"))))
        state = b.find_element(By.CSS_SELECTOR, "[data-finished]")
        return state.get_attribute("data-finished") == "true"

    wait_for(browser, finished)
    done, total = seen[-1]
    assert done == total == RECORDS
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)  # it only moves forward
    assert f"Done: all {RECORDS} records verified." in browser.find_element(By.ID, "main").text
    counts = {
        row.get_attribute("class"): row.find_element(By.CSS_SELECTOR, "td").text
        for row in browser.find_elements(By.CSS_SELECTOR, "tr[class^=outcome-]")
    }
    assert counts == {"outcome-stored": str(RECORDS - 1), "outcome-rejected": "1"}
    illegal = browser.find_element(By.CSS_SELECTOR, "a.verdict-illegal")
    assert illegal.find_element(By.XPATH, "../../td").text == "5"
    rejected = browser.find_element(By.ID, "item-10")
    assert "line 11" in rejected.text
    shot(browser, "upload-en-desktop")
    shot(browser, "upload-en-phone", size=PHONE)

    accept_language(browser, "ru")
    browser.refresh()
    assert f"Готово: проверены все {RECORDS} записей." in browser.find_element(By.ID, "main").text
    shot(browser, "upload-ru-desktop")
    shot(browser, "upload-ru-phone", size=PHONE)

    illegal = browser.find_element(By.CSS_SELECTOR, "a.verdict-illegal")
    illegal.click()
    rows = wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "table.games tbody tr"))
    assert len(rows) == 5
    shot(browser, "upload-flagged-games-ru-desktop")


def test_the_form_is_reached_and_sent_with_the_keyboard_alone(browser: Any, user: Any) -> None:
    """Tab goes from the page's start (its links and the header's buttons) to the file, then
    who sees the games, then the button."""
    sign_in(browser, user)
    browser.get(browser.base + "/uploads/new/")
    body = browser.find_element(By.TAG_NAME, "body")
    order = []
    for _ in range(20):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        active = browser.switch_to.active_element
        in_form = browser.execute_script("return !!arguments[0].closest('form.upload')", active)
        order.append((active.get_attribute("name") or active.tag_name) if in_form else "page")
        if active.get_attribute("type") == "submit" and active.text == "Upload":
            break
    assert body != browser.switch_to.active_element
    fields = [name for name in order if name in ("file", "visibility", "button")]
    assert fields == ["file", "visibility", "button"], order
    label = browser.find_element(By.CSS_SELECTOR, "label[for=id_file]")
    assert label.text == "File of records"
