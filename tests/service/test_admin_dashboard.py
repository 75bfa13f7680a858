"""The admin's index (/admin/): a dashboard of games per week, verdicts, the review queue and
the most frequent finding codes, above the apps."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.selectors import game_dashboard
from tests.service.conftest import store_game
from verification.selectors import finding_code_counts

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(
    user: Any, other_user: Any, record: Any, illegal_record: Any, mismatch_record: Any
) -> dict:
    ids = {
        "verified": store_game(record(1), user),
        "illegal": store_game(illegal_record, user),
        "mismatch": store_game(mismatch_record, other_user),
        "old": store_game(record(2), user),
    }
    now = timezone.now()
    Game.objects.filter(pk=ids["illegal"]).update(created_at=now - dt.timedelta(days=3, hours=1))
    Game.objects.filter(pk=ids["old"]).update(created_at=now - dt.timedelta(weeks=30))
    return ids


def test_the_dashboard_counts_games_per_week_verdicts_and_the_queue(games: dict) -> None:
    board = game_dashboard(weeks=12)
    assert len(board.weeks) == 12
    assert all(day.weekday() == 0 for day, _ in board.weeks)
    assert sum(n for _, n in board.weeks) == 3  # the game of 30 weeks ago is before them
    assert board.weeks[-1][1] + board.weeks[-2][1] == 3
    assert dict(board.verdicts) == {"malformed": 0, "illegal": 1, "mismatch": 1, "verified": 2}
    assert board.queue == 2
    assert board.oldest_wait is not None and board.oldest_wait >= dt.timedelta(days=3)


def test_the_most_frequent_codes_count_findings_and_games(games: dict) -> None:
    codes = finding_code_counts()
    assert {code for code, _, _ in codes} >= {"play.revoke"}
    assert all(games_n <= n for _, n, games_n in codes)
    counts = [n for _, n, _ in codes]
    assert counts == sorted(counts, reverse=True)


def test_the_admin_index_shows_the_dashboard_above_the_apps(admin_web: Client, games: dict) -> None:
    page = admin_web.get("/admin/").content.decode()
    dashboard = page.index('id="dashboard"')
    assert dashboard < page.index('id="content-related"') or dashboard < page.index("app-games")
    start = page.index('<figure class="chart" id="weeks">')
    weeks = page[start : page.index("</figure>", start)]
    assert '<title id="weeks-title">Games stored per week, the last 12 weeks</title>' in weeks
    assert weeks.count("<rect") == 12  # a bar per week, the empty ones too
    counts = [int(n) for n in re.findall(r"<td>(\d+)</td>", weeks)]
    assert len(counts) == 12 and sum(counts) == 3  # and a row of the table
    assert "Games stored per week: 3 games in 12 weeks" in page
    assert re.search(r">2</a>\s*games wait for a reviewer", page)
    assert "The oldest has waited 3\xa0days" in page
    assert '?verdict__exact=illegal">illegal</a>' in page
    assert "<code>play.revoke</code>" in page
