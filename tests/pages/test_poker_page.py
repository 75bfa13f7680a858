"""A poker game's page without a browser: seats and places, findings at their hand, stage
and action linking to that moment, the hands' table, and the hand's replay, in English
and in Russian; a moment the game lacks is a 400 that says why."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.models import GameSeat
from replay.poker.corruptions import corrupt
from replay.poker.game import verify
from replay.poker.simulate import simulate_record
from replay.poker.state import hand_moments
from web.cards import card_html

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "ru"]


def _get(path: str, language: str = "en") -> Any:
    # The request activates the reader's language in this thread; the override puts back
    # the one before, so that no later test reads Russian.
    with translation.override(language):
        return Client(HTTP_ACCEPT_LANGUAGE=language).get(path)


def _text(response: Any) -> str:
    """The page's main content as text, tags removed."""
    page = response.content.decode()
    main = page[page.find("<main") :]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", main)))


def _pot(response: Any) -> int:
    found = re.search(r'data-field="pot-amount">(\d+)<', response.content.decode())
    assert found, "no pot on the page"
    return int(found.group(1))


def _step(response: Any, name: str) -> str | None:
    found = re.search(rf'data-step="{name}"[^>]*?href="(\?[^"#]*)#', response.content.decode())
    return None if found is None else html.unescape(found.group(1))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_verified_club_game_shows_its_seats_hands_and_the_first_hand(
    make_game: Callable[..., int], language: str
) -> None:
    record = simulate_record("club_stud", 4, 5, 3)
    report = verify(record)
    game = make_game(record=record)
    response = _get(f"/games/{game}/", language)
    assert response.status_code == 200
    text = _text(response)
    words = {
        "en": ("verified", "Hand 1 of", "No findings", "Chips won over the hands"),
        "ru": ("проверена", "Раздача 1 из", "Замечаний нет", "Выигрыш фишек за раздачи"),
    }[language]
    for word in words:
        assert word in text, word
    # Places by the chips won: the seat with the most is first.
    nets = [sum(h.net[s] for h in report.hands) for s in range(4)]
    seats = GameSeat.objects.filter(game_id=game).order_by("place", "seat")
    assert [int(s.total) for s in seats] == sorted(nets, reverse=True)
    # Each hand a row of the hands' table, with a link to its start.
    for number in range(1, len(report.hands) + 1):
        assert f'href="?hand={number}&amp;stage=1&amp;action=0#replay"' in response.content.decode()
    # The first stage: two cards a seat, the first face down, suits as symbols.
    page = response.content.decode()
    assert page.count('class="down"') == 4 and page.count('class="up"') == 4
    assert re.search("[♠♣♦♥]", text)
    assert _pot(response) == 4  # the antes


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", ["bet.amount", "bet.missing"])
def test_a_finding_links_to_its_moment_where_the_table_explains_it(
    make_game: Callable[..., int], language: str, code: str
) -> None:
    record = corrupt(simulate_record("club_stud", 4, 4, 3), code, random.Random(1))
    where = record["meta"]["corruption"]
    hand, stage, action = where["hand"], where["stage"], where.get("action")
    game = make_game(record=record)
    response = _get(f"/games/{game}/", language)
    assert response.status_code == 200
    moment = f"hand={hand}&stage={stage}" + ("" if action is None else f"&action={action}")
    label = {
        "en": f"hand {hand}, stage {stage}" + ("" if action is None else f", action {action}"),
        "ru": f"раздача {hand}, этап {stage}" + ("" if action is None else f", действие {action}"),
    }[language]
    assert label in _text(response)
    assert f'href="?{html.escape(moment)}#replay"' in response.content.decode()
    there = _get(f"/games/{game}/?{moment}", language)
    assert there.status_code == 200
    page = there.content.decode()
    notes = page[page.find('data-field="notes"') :]
    assert 'class="severity-error"' in notes[: notes.find("</div>")]
    if action is not None:
        # The seat that acted is marked at the table.
        assert re.search(rf'<tr data-seat="{where["seat"]}" class="next', page)
    verdict = {"en": "illegal", "ru": "нарушение"}[language]
    assert verdict in _text(there)


def test_a_claim_that_differs_is_shown_beside_the_replay_s_value(
    make_game: Callable[..., int],
) -> None:
    record = corrupt(simulate_record("club_stud", 3, 4, 2), "result.payout", random.Random(2))
    where = record["meta"]["corruption"]
    game = make_game(record=record)
    response = _get(f"/games/{game}/")
    claimed = record["hands"][where["hand"] - 1]["net"][where["seat"]]
    page = response.content.decode()
    assert re.search(rf'<span class="claimed"[^>]*>{claimed}</span>', page)
    assert "mismatch" in _text(response)


def test_stepping_an_action_forward_shows_the_bet_and_the_pot(
    make_game: Callable[..., int],
) -> None:
    record = simulate_record("club_stud", 4, 4, 3)
    game = make_game(record=record)
    moments = hand_moments(record, 1)
    assert moments is not None
    states = moments.states
    i = next(i for i in range(len(states) - 1) if states[i + 1].pot > states[i].pot)
    before, after = states[i], states[i + 1]
    response = _get(f"/games/{game}/?hand=1&stage={before.stage}&action={before.action}")
    assert _pot(response) == before.pot
    forward = _step(response, "next_action")
    assert forward == f"?hand=1&stage={after.stage}&action={after.action}"
    stepped = _get(f"/games/{game}/{forward}")
    assert _pot(stepped) == after.pot
    assert after.acted is not None
    seat = after.seats[after.acted.seat]
    row = re.search(rf'<tr data-seat="{seat.seat}".*?</tr>', stepped.content.decode(), re.S)
    assert row and f'data-field="bet" data-label="Bet in the stage">{seat.bet}<' in row.group(0)
    # And back again.
    assert _step(stepped, "prev_action") == f"?hand=1&stage={before.stage}&action={before.action}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_casino_hand_shows_the_dealer_s_card_then_its_hand_at_the_end(
    make_game: Callable[..., int], language: str
) -> None:
    record = simulate_record("joker_poker", 3, 3, 2)
    report = verify(record)
    game = make_game(record=record)
    start = _get(f"/games/{game}/?hand=1&stage=1&action=0", language)
    assert start.status_code == 200
    house = re.search(r'<tr class="house">.*?</tr>', start.content.decode(), re.S)
    assert house is not None
    assert house.group(0).count("??") == 4
    end = _get(f"/games/{game}/?hand=1", language)
    assert end.status_code == 200
    house = re.search(r'<tr class="house">.*?</tr>', end.content.decode(), re.S)
    assert house is not None and "??" not in house.group(0)
    category = {
        "en": {"one_pair": "one pair", "high_card": "high card", "two_pair": "two pair"},
        "ru": {"one_pair": "пара", "high_card": "старшая карта", "two_pair": "две пары"},
    }[language]
    rank = report.hands[0].dealer_rank
    if rank in category:
        assert category[rank] in re.sub(r"<[^>]+>", " ", house.group(0))
    words = {"en": "the end: the showdown", "ru": "конец: вскрытие"}[language]
    assert words in _text(end)


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("hand=99", "no hand 99"),
        ("hand=1&stage=9", "no stage 9"),
        ("hand=1&stage=1&action=99", "no action 99"),
        ("hand=x", "hand must be a number"),
        ("action=2", "an action needs its stage"),
        ("stage=2", "a stage needs its hand"),
    ],
)
def test_a_moment_the_game_lacks_is_a_400_that_says_why(
    make_game: Callable[..., int], query: str, said: str
) -> None:
    game = make_game(record=simulate_record("club_stud", 3, 2, 1))
    response = _get(f"/games/{game}/?{query}")
    assert response.status_code == 400
    assert said in _text(response)
    assert "Hand 1 of" in _text(response)  # the table shows the game's start


@pytest.mark.parametrize("query", ["hand=2", "hand=2&stage=5", "hand=1&stage=3&action=0"])
def test_a_moment_the_game_has_is_a_200(make_game: Callable[..., int], query: str) -> None:
    game = make_game(record=simulate_record("club_stud", 3, 2, 1))
    assert _get(f"/games/{game}/?{query}").status_code == 200


def test_the_next_action_walks_every_moment_of_every_hand_once(
    make_game: Callable[..., int],
) -> None:
    record = simulate_record("club_stud", 3, 3, 6)
    game = make_game(record=record)
    expected = []
    for hand in range(1, len(record["hands"]) + 1):
        moments = hand_moments(record, hand)
        assert moments is not None
        for stage, action in moments.moments:
            expected.append(
                f"?hand={hand}" + ("" if stage is None else f"&stage={stage}&action={action}")
            )
    walked = []
    address: str | None = "?hand=1&stage=1&action=0"
    while address is not None:
        walked.append(address)
        response = _get(f"/games/{game}/{address}")
        assert response.status_code == 200, address
        address = _step(response, "next_action")
    assert walked == expected
    # The game's last moment leads nowhere further, and back one action.
    assert _step(response, "next_hand") is None and _step(response, "next_stage") is None
    assert _step(response, "prev_action") == expected[-2]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_hand_the_others_folded_says_who_takes_the_pot(
    make_game: Callable[..., int], language: str
) -> None:
    record = simulate_record("club_stud", 4, 4, 0)
    report = verify(record)
    hand = next(h for h in report.hands if all(r is None for r in h.ranks))
    game = make_game(record=record)
    response = _get(f"/games/{game}/?hand={hand.number}", language)
    (winner,) = hand.winners
    said = {
        "en": (f"the others folded, P{winner + 1} takes the pot", "wins"),
        "ru": (f"остальные сбросили карты, банк забирает P{winner + 1}", "выигрывает"),
    }[language]
    assert said[0] in _text(response)
    row = re.search(rf'<tr data-seat="{winner}".*?</tr>', response.content.decode(), re.S)
    assert row is not None and said[1] in row.group(0)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_j_poker_hand_names_its_joker(make_game: Callable[..., int], language: str) -> None:
    record = simulate_record("j_poker", 2, 2, 1)
    game = make_game(record=record)
    response = _get(f"/games/{game}/?hand=1&stage=1&action=0", language)
    status = re.search(r'data-field="status"[^>]*>(.*?)</p>', response.content.decode(), re.S)
    assert status is not None
    words = {"en": "the hand's joker:", "ru": "джокер раздачи:"}[language]
    assert words in html.unescape(status.group(1))
    with translation.override(language):
        assert str(card_html(record["hands"][0]["joker"])) in status.group(1)
