"""A rummy game's page without a browser: places lowest first, findings at their turns, the
score sheet with its claims, the table at a turn, bad addresses (``web.rummy.page``)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from replay.rummy import verify
from replay.rummy.simulate import simulate_game
from replay.rummy.state import state_after
from web.rummy.page import rummy_card_html

pytestmark = pytest.mark.django_db

Record = dict[str, Any]


@pytest.fixture(scope="module")
def legal() -> Record:
    return simulate_game("joker_rummy", 3, 1)


@pytest.fixture(scope="module")
def corrupted() -> Record:
    return simulate_game("joker_rummy", 3, 1, corrupt_mode="meld.invalid")


def page(game: int, language: str = "en", query: str = "") -> tuple[int, str]:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/games/{game}/{query}")
    return response.status_code, response.content.decode()


def text(markup: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup)))


def section(markup: str, start: str, end: str) -> str:
    return markup[markup.index(start) : markup.index(end, markup.index(start))]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_verified_game_ranks_the_lowest_total_first(
    make_game: Callable[..., int], legal: Record, language: str
) -> None:
    game = make_game(record=legal)
    status, body = page(game, language)
    assert status == 200
    standings = section(body, 'class="standings"', "</table>")
    rows = re.findall(r"<tr(?: class=\"winner\")?>(.*?)</tr>", standings, re.S)[1:]
    totals = [int(text(r).split()[-1]) for r in rows]
    assert totals == sorted(legal["totals"])
    assert "winner" in standings.split("</tr>")[1]
    words = {
        "en": ("verified", "Score sheet", "Melds on the table", "as dealt"),
        "ru": ("проверен", "Расписка", "Комбинации на столе", "как сдано"),
    }[language]
    for word in words:
        assert word in text(body), word
    # The trick-taking table's words have no place here.
    assert "trick" not in text(section(body, 'class="replay rummy"', "</section>")).lower()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_corrupted_game_links_its_finding_to_its_turn(
    make_game: Callable[..., int], corrupted: Record, language: str
) -> None:
    where = corrupted["meta"]["corruption"]
    game = make_game(record=corrupted)
    status, body = page(game, language)
    assert status == 200
    findings = section(body, '<ol class="findings">', "</ol>")
    deal, turn, action = where["deal"], where["turn"], where["action"]
    said = {
        "en": f"deal {deal}, turn {turn}, action {action}",
        "ru": f"раздача {deal}, ход {turn}, действие {action}",
    }
    link = f'href="?deal={deal}&amp;turn={turn}#replay"'
    assert link in findings
    assert said[language] in text(findings)
    assert "meld.invalid" in findings
    # Following the link: the table after that turn, the finding among its notes.
    status, body = page(game, language, f"?deal={deal}&turn={turn}")
    assert status == 200
    notes = section(body, 'class="notes"', "</div>")
    assert "meld.invalid" not in notes  # written in words, not as its code
    assert said[language] in text(notes)
    status, before = page(game, language, f"?deal={deal}&turn={turn - 1}")
    assert said[language] not in text(section(before, 'class="notes"', "</div>"))


def test_the_sheet_shows_claimed_beside_recomputed_where_they_differ(
    make_game: Callable[..., int],
) -> None:
    record = simulate_game("joker_rummy", 3, 1, corrupt_mode="result.points")
    where = record["meta"]["corruption"]
    report = verify(record)
    game = make_game(record=record)
    status, body = page(game)
    assert status == 200
    sheet = section(body, 'class="sheet rummy-sheet"', "</table>")
    rows = sheet.split('<th scope="row">')[1:]
    deal = rows[where["deal"] - 1]
    claimed = record["deals"][where["deal"] - 1]["points"][where["seat"]]
    recomputed = report.deals[where["deal"] - 1].points[where["seat"]]
    assert claimed != recomputed
    assert (
        f'<span class="claimed" title="claimed on the sheet">{claimed}</span> {recomputed}' in deal
    )
    # Every other deal agrees with its claims: nothing struck through.
    assert sum('class="claimed"' in r for r in rows) == 1
    out = report.deals[0].out
    assert record["players"][out] in text(rows[0].split("</td>")[1])


def test_the_table_after_a_turn_is_the_engines(
    make_game: Callable[..., int], legal: Record
) -> None:
    game = make_game(record=legal)
    state, _, _ = state_after(legal, 2, 17)
    assert state is not None and state.pile_top is not None
    status, body = page(game, "en", "?deal=2&turn=17")
    assert status == 200
    replay = section(body, 'class="replay rummy"', "</section>")
    assert f"Deal 2 of {len(legal['deals'])}" in text(replay)
    assert f"turn 17 of {state.turns}: {legal['players'][state.seat or 0]}" in text(replay)
    status = section(replay, 'class="moment"', "</p>")
    assert state.discard is not None
    assert f"discarded {rummy_card_html(state.discard[0])}" in status
    pile = section(replay, 'data-field="pile"', "</p>")
    assert str(rummy_card_html(state.pile_top)) in pile
    melds = re.findall(r'<li value="(\d+)" data-meld', replay)
    assert [int(m) for m in melds] == [m.number for m in state.melds]
    for meld in state.melds:
        assert legal["players"][meld.owner] in text(
            section(replay, f'data-meld="{meld.number}"', "</li>")
        )
    hands = re.findall(r'data-field="hand">(.*?)</td>', replay, re.S)
    assert [h.count('class="card') for h in hands] == [len(h) for h in state.hands]
    # The links step a turn either way and a deal either way.
    assert 'href="?deal=2&amp;turn=18#replay"' in replay
    assert 'href="?deal=2&amp;turn=16#replay"' in replay
    assert 'href="?deal=3&amp;turn=0#replay"' in replay
    assert 'href="?deal=2&amp;turn=0#replay"' in replay


def test_a_joker_in_a_run_shows_the_card_it_stands_for() -> None:
    written = str(rummy_card_html("X=QC"))
    assert 'class="card joker"' in written and "Q♣" in written


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("?deal=9", "deal 9 does not exist"),
        ("?deal=1&turn=999", "turn 999 does not exist"),
        ("?deal=1&turn=-1", "turn -1 does not exist"),
        ("?deal=x", "deal must be a number"),
        ("?turn=3", "a turn needs its deal"),
    ],
)
def test_a_moment_the_game_lacks_is_a_400_that_says_so(
    make_game: Callable[..., int], legal: Record, query: str, words: str
) -> None:
    game = make_game(record=legal)
    status, body = page(game, "en", query)
    assert status == 400
    problem = section(body, 'class="problem"', "</p>")
    assert words in text(problem)
    assert "as dealt" in text(section(body, 'class="replay rummy"', "</section>"))


def test_the_last_turn_and_the_deal_s_end_are_one_moment(
    make_game: Callable[..., int], legal: Record
) -> None:
    game = make_game(record=legal)
    turns = len(legal["deals"][0]["turns"])
    _, by_turn = page(game, "en", f"?deal=1&turn={turns}")
    status, by_deal = page(game, "en", "?deal=1")
    assert status == 200
    replay = section(by_deal, 'class="replay rummy"', "</section>")
    assert replay == section(by_turn, 'class="replay rummy"', "</section>")
    out = legal["players"][legal["deals"][0]["out"]]
    assert f"{out} went out" in text(replay)


def test_a_sheet_game_has_no_turns_to_step(make_game: Callable[..., int]) -> None:
    record = simulate_game("joker_rummy", 3, 1, sheet=True)
    game = make_game(record=record)
    status, body = page(game, "ru")
    assert status == 200
    assert "ходов" in text(section(body, 'class="replay rummy"', "</section>"))
    status, _ = page(game, "en", "?deal=1&turn=1")
    assert status == 400


def test_the_games_list_says_a_rummy_game_s_family(
    make_game: Callable[..., int], legal: Record
) -> None:
    make_game(record=legal)
    body = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/games/").content.decode()
    assert "joker_rummy" in body and "рамми" in text(body).lower()


def test_the_steps_cross_from_deal_to_deal_and_stop_at_the_game_s_ends(
    make_game: Callable[..., int], legal: Record
) -> None:
    game = make_game(record=legal)
    first = len(legal["deals"][0]["turns"])
    last, turns = len(legal["deals"]), len(legal["deals"][-1]["turns"])

    def buttons(query: str) -> dict[str, str | None]:
        _, body = page(game, "en", query)
        found = re.findall(
            r'data-step="(\w+)"[^>]*?(?:href="\?([^"#]*)#replay"|aria-disabled)', body
        )
        return {name: html.unescape(href) or None for name, href in found}

    assert buttons("?deal=2&turn=0")["prev_turn"] == f"deal=1&turn={first}"
    assert buttons(f"?deal=1&turn={first}")["next_turn"] == "deal=2&turn=0"
    start = buttons("")
    assert start["prev_turn"] is None and start["prev_deal"] is None
    end = buttons(f"?deal={last}")
    assert end["next_turn"] is None and end["next_deal"] is None
    assert buttons(f"?deal={last}&turn=1")["next_deal"] == f"deal={last}&turn={turns}"


def test_findings_are_in_the_reader_s_words_where_the_catalogue_fits_them(
    make_game: Callable[..., int],
) -> None:
    total = make_game(record=simulate_game("joker_rummy", 3, 1, corrupt_mode="result.total"))
    _, body = page(total, "ru")
    findings = text(section(body, '<ol class="findings">', "</ol>"))
    assert "Окончательный итог у игрока Player 3 — 83, а в записи 84." in findings
    assert "the total of" not in findings
    # The rummy's own sentences, where its values are not the trick-taking ones.
    short = make_game(record=simulate_game("joker_rummy", 3, 1, corrupt_mode="game.incomplete"))
    _, body = page(short, "ru")
    findings = text(section(body, '<ol class="findings">', "</ol>"))
    assert "вся игра" in findings and "Сыграно раздач: 2 из 3." in findings
    assert "deals played" not in findings
