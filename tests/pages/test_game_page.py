"""A game's page without a browser: who may see it, the table at a moment, bad addresses."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from replay import state_at
from web import steps
from web.replays import NoMoment, moment
from web.reports import report_view, unsaved_findings

pytestmark = pytest.mark.django_db


def _view(record: dict[str, Any]) -> Any:
    from replay import verify

    report = verify(record).to_dict()
    return report_view(record=record, report=report, findings=unsaved_findings(report))


@pytest.mark.parametrize("corrupt", [None, "revoke"])
def test_every_moment_of_the_table_is_the_engines_state_at_it(
    make_record: Callable[..., dict[str, Any]], corrupt: str | None
) -> None:
    record = make_record(ruleset="joker54", players=5, corrupt=corrupt)
    line = _view(record).line
    position = steps.start(line, 1)
    visited = 0
    while position is not None:
        deal, trick, play = position
        shown = moment(line, deal, trick, play)
        state, _ = state_at(record, deal, trick, play)
        assert state is not None
        held = [sorted(s["cards"]) for s in shown.seats]
        if "hands" in record["deals"][deal - 1]:
            assert held == [sorted(h) for h in state["hands"]], position
        else:
            # Without dealt hands a seat holds what it has yet to play (docs/rules.md, 20);
            # the engine's state_at shows none of those.
            assert held == [sorted(h) for h in _yet_to_play(record, *position)], position
        assert [int(s["taken"]) for s in shown.seats] == state["taken"]
        assert [float(s["running"]) for s in shown.seats] == state["running"]
        assert [item["seat"] for item in shown.table] == [p["seat"] for p in state["trick_so_far"]]
        visited += 1
        position = steps.steps(line, position)["next_play"]
    # A trick is a list of plays, or an object that holds them.
    plays = sum(
        len(t["plays"] if isinstance(t, dict) else t) for d in record["deals"] for t in d["tricks"]
    )
    # Every play once, and each deal's start before its first play.
    assert visited == plays + len(record["deals"])


def _yet_to_play(record: dict[str, Any], deal: int, trick: int, play: int) -> list[list[str]]:
    """Each seat's cards of ``deal`` from the plays it makes after ``play`` plays of
    ``trick``, as the engine places them (a canonical play starts with its card)."""
    later: list[list[str]] = [[] for _ in record["players"]]
    for t in range(1, len(record["deals"][deal - 1]["tricks"]) + 1):
        done, _ = state_at(record, deal, t)
        assert done is not None
        for k, entry in enumerate(done["trick_so_far"], 1):
            if t > trick or (t == trick and k > play):
                later[entry["seat"]].append(entry["play"][:2])
    return later


def test_each_step_back_undoes_the_step_forward(make_record: Callable[..., Any]) -> None:
    line = _view(make_record()).line
    for deal in (1, 5, 20):
        position = steps.start(line, deal)
        while position is not None and position[0] == deal:
            following = steps.steps(line, position)["next_play"]
            if following is not None:
                assert steps.steps(line, following)["prev_play"] == position
            position = following


def test_a_moment_the_game_lacks_names_the_value_at_fault(make_record: Callable[..., Any]) -> None:
    line = _view(make_record()).line
    with pytest.raises(NoMoment, match="deal 99 does not exist: the game has deals 1 to 36"):
        moment(line, 99, None, None)
    with pytest.raises(NoMoment, match="trick 4 does not exist in deal 3"):
        moment(line, 3, 4, None)


def test_a_private_game_is_only_for_its_uploader_and_staff(
    make_game: Callable[..., int], user: Any, other_user: Any, staff_user: Any
) -> None:
    game = make_game(by=user, visibility="private")
    for who, status in ((None, 404), (other_user, 404), (user, 200), (staff_user, 200)):
        client = Client()
        if who is not None:
            client.force_login(who)
        assert client.get(f"/games/{game}/").status_code == status, who
    assert f'href="/games/{game}/"' not in Client().get("/games/").content.decode()


def test_a_deep_link_renders_that_moment_on_the_server(make_game: Callable[..., int]) -> None:
    game = make_game()
    page = Client().get(f"/games/{game}/?deal=3&trick=2&play=1").content.decode()
    assert 'data-moment="deal=3&amp;trick=2&amp;play=1"' in page
    assert "trick 2 of 3, play 1 of 4" in page
    # The buttons are links to the neighbouring moments.
    assert 'href="?deal=3&amp;trick=2&amp;play=2#replay"' in page


def test_a_bad_moment_is_a_400_that_says_why_and_shows_the_start(
    make_game: Callable[..., int],
) -> None:
    game = make_game()
    response = Client().get(f"/games/{game}/?deal=3&trick=x")
    assert response.status_code == 400
    page = response.content.decode()
    assert "trick must be a number, not “x”" in page
    assert 'data-moment="deal=1&amp;trick=1&amp;play=0"' in page


def test_the_sheet_shows_a_claimed_score_beside_the_recomputed_one(
    make_game: Callable[..., int],
) -> None:
    game = make_game(corrupt="wrong_score")
    page = Client().get(f"/games/{game}/").content.decode()
    cells = re.findall(
        r'<td class="num differs[^"]*"><span class="claimed"[^>]*>([^<]+)</span> ([^<]+)</td>', page
    )
    assert cells and all(claimed != recomputed for claimed, recomputed in cells)


def test_dates_and_numbers_follow_the_readers_language(make_game: Callable[..., int]) -> None:
    game = make_game()
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/games/{game}/").content.decode()
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/games/{game}/").content.decode()
    month = re.search(r"<time datetime=\"[^\"]+\">([^<]+)</time>", russian)
    assert month is not None and re.search("[а-я]", month.group(1)), month
    assert "Played" in english and "Сыграна" in russian


def test_a_game_audited_from_its_sheet_has_a_table_of_deals_without_plays(
    make_game: Callable[..., int],
) -> None:
    game = make_game(sheet=True)
    response = Client().get(f"/games/{game}/?deal=2")
    assert response.status_code == 200
    page = response.content.decode()
    assert "scored from the sheet: the record has no plays" in page
    assert 'data-moment="deal=2"' in page


def test_the_players_named_sit_in_their_seats(make_game: Callable[..., int]) -> None:
    game = make_game(names=("Пётр", "Вася", "Алекс"), players=3, ruleset="two_jacks")
    page = Client().get(f"/games/{game}/").content.decode()
    assert all(
        f'<span data-field="name">{name}</span>' in page for name in ("Пётр", "Вася", "Алекс")
    )
