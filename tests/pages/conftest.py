"""Fixtures for the pages' tests: games in the database, and a headless Chromium to drive.

``browser`` is Debian's ``/usr/bin/chromium`` through ``/usr/bin/chromedriver`` (Selenium),
one per test session, its cookies cleared and its window reset before each test. Tests
that use it are marked ``browser`` and take ``live_server``, whose database is transactional
(a real commit, which the server thread sees); they run on SQLite and on PostgreSQL alike.
Without Chromium they are skipped, except under CI (``CI`` set), where that is a failure:
``.ci/run`` installs it.

``shot(browser, name)`` saves a screenshot of the page under ``tests/artifacts/screenshots/``
(git-ignored), to look at after a run.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from replay.simulate import simulate_game
from verification.services.records import game_store

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SCREENSHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
DESKTOP = (1280, 900)
PHONE = (390, 844)
#: Seconds a browser test waits for something to appear before it fails.
WAIT = 10

Record = dict[str, Any]
SEED = 20261201


@pytest.fixture(scope="session")
def _records() -> dict[tuple[Any, ...], Record]:
    return {}


@pytest.fixture
def make_record(_records: dict[tuple[Any, ...], Record]) -> Callable[..., Record]:
    """``make_record(ruleset="classic", players=4, seed=0, corrupt=None, names=None,
    sheet=False)``: a simulated record (``corrupt`` names one defect, ``replay
    .simulate``; ``names`` the players, one per seat; ``sheet`` drops the plays), a fresh
    copy each time; each simulation is made once per session."""

    def make(
        ruleset: str = "classic",
        players: int = 4,
        seed: int = 0,
        corrupt: str | None = None,
        names: tuple[str, ...] | None = None,
        sheet: bool = False,
    ) -> Record:
        key = (ruleset, players, seed, corrupt, names, sheet)
        if key not in _records:
            _records[key] = simulate_game(
                ruleset,
                players,
                SEED + seed,
                corrupt=corrupt,
                names=None if names is None else list(names),
                sheet=sheet,
            )
        return copy.deepcopy(_records[key])

    return make


@pytest.fixture
def make_game(make_record: Callable[..., Record]) -> Callable[..., int]:
    """``make_game(record=None, by=None, visibility="public", **make_record_arguments)``:
    stores a record through the service the API uses and returns its game's id."""

    def make(
        record: Record | None = None,
        *,
        by: Any = None,
        visibility: str = "public",
        **simulation: Any,
    ) -> int:
        record = record if record is not None else make_record(**simulation)
        text = json.dumps(record, ensure_ascii=False)
        outcome = game_store(text=text, value=record, uploaded_by=by, visibility=visibility)
        assert outcome.game_id is not None, outcome.findings
        return outcome.game_id

    return make


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings: Any) -> None:
    """Tests need no strong hash, and the production one takes half a second per user."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _chromium_missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if shutil.which(str(path)) is None:
            return f"{path} is missing (Debian: apt-get install chromium chromium-driver)"
    return None


@pytest.fixture(scope="session")
def _driver() -> Iterator[Any]:
    missing = _chromium_missing()
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root, where Chromium's sandbox cannot start
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--lang=en-US",
        f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
    ):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "en-US,en"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


@pytest.fixture
def browser(_driver: Any, live_server: Any) -> Iterator[Any]:
    """The session's Chromium, at desktop width, with no cookies, speaking English; its
    ``base`` attribute is the live server's address."""
    _driver.delete_all_cookies()
    _driver.set_window_size(*DESKTOP)
    accept_language(_driver, "en-US,en")
    _driver.base = live_server.url
    yield _driver
    _driver.delete_all_cookies()


def accept_language(driver: Any, value: str) -> None:
    """Make the browser ask for ``value`` (``Accept-Language``) from the next request on."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": value}})


def shot(driver: Any, name: str, *, size: tuple[int, int] = DESKTOP) -> Path:
    """Save a screenshot of the whole page at the width of ``size`` (``DESKTOP``, ``PHONE``)
    as ``tests/artifacts/screenshots/<name>.png``; the window is back at desktop size after."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / (re.sub(r"[^\w.-]+", "-", name) + ".png")
    driver.set_window_size(*size)
    driver.execute_script("window.scrollTo(0, 0)")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(size[0], min(max(height, size[1]), 8000))
    driver.save_screenshot(str(path))
    driver.set_window_size(*DESKTOP)
    return path


def wait_for(driver: Any, condition: Callable[[Any], Any]) -> Any:
    """What ``condition(driver)`` returns once it is true, waiting up to ``WAIT`` seconds."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # A click that loads another page leaves the old one's elements stale for a moment.
    ignored = (NoSuchElementException, StaleElementReferenceException)
    return WebDriverWait(driver, WAIT, ignored_exceptions=ignored).until(condition)
