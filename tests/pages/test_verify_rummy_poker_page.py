"""The verify page with rummy and poker records: the verdict, the findings in words at their
game's places, and the table the replay recomputed, in English and in Russian.

The records are the engines' simulations (``replay.rummy.simulate``,
``replay.poker.simulate``), legal or with one defect at a known place.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from games.models import Game
from replay import verify
from replay.poker.corruptions import corrupt as corrupt_poker
from replay.poker.simulate import simulate_record as simulate_poker
from replay.rummy.simulate import simulate_game as simulate_rummy

pytestmark = pytest.mark.django_db

Record = dict[str, Any]


def rummy(corruption: str | None = None) -> Record:
    return simulate_rummy("joker_rummy", 3, 4, corrupt_mode=corruption)


def poker(preset: str = "club_stud", corruption: str | None = None) -> Record:
    record = simulate_poker(preset, 3, 4, 5)
    if corruption is None:
        return record
    corrupted = corrupt_poker(record, corruption, random.Random(3))
    assert corrupted is not None
    return corrupted


def post(record: Record | str, language: str = "en") -> Any:
    text = record if isinstance(record, str) else json.dumps(record)
    response = Client(HTTP_ACCEPT_LANGUAGE=language).post("/verify/", {"record": text})
    assert response.status_code == 200, response.content.decode()[:2000]
    return response


def page_text(response: Any) -> str:
    """The page's words as a reader sees them: the tags dropped, the spaces folded."""
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def findings_html(response: Any) -> str:
    html: str = response.content.decode()
    start = html.index('<ol class="findings">')
    return html[start : html.index("</ol>", start)]


def test_a_legal_rummy_game_shows_its_deals_and_the_lowest_total_winning() -> None:
    record = rummy()
    report = verify(record).to_dict()
    response = post(record)
    [result] = response.context["results"]
    assert result.view.verdict == "verified"
    text = page_text(response)
    assert "No findings: every rule kept, every score adds up." in text
    assert "The lowest total wins." in text
    # The standings: the lowest total first, the report's winners marked.
    standings = result.view.standings
    assert [s.total for s in standings] == sorted(report["totals"])
    assert {s.seat for s in standings if s.winner} == set(report["winners"])
    assert standings[0].winner
    # One row per deal: who went out, and each player's points and running total.
    html = response.content.decode()
    table = html[html.index('<table class="sheet rummy-sheet">') :]
    table = table[: table.index("</table>")]
    assert table.count('<th scope="row">') == len(report["deals"])
    for deal in report["deals"]:
        row = table[table.index(f'<th scope="row">{deal["number"]}</th>') :]
        row = row[: row.index("</tr>")]
        cells = re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)
        expected = [
            str(v) for pair in zip(deal["points"], deal["running"], strict=True) for v in pair
        ]
        assert cells == expected
        assert record["players"][deal["out"]] in row
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("language", "where", "said"),
    [
        (
            "en",
            "deal {deal}, turn {turn}, action {action}",
            "laid down a meld that is neither a run nor a set",
        ),
        (
            "ru",
            "раздача {deal}, ход {turn}, действие {action}",
            "выложил(а) комбинацию, которая не лесенка и не сет",
        ),
    ],
)
def test_a_rummy_finding_is_said_at_its_deal_turn_and_action(
    language: str, where: str, said: str
) -> None:
    record = rummy("meld.invalid")
    place = record["meta"]["corruption"]
    response = post(record, language)
    [result] = response.context["results"]
    assert result.view.verdict == "illegal"
    findings = findings_html(response)
    assert where.format(**place) in findings
    player = record["players"][place["seat"]]
    assert f"<strong>{player}</strong> {said}" in findings
    assert "meld.invalid" in findings
    # Written from the code and the fields, not the engine's English message.
    assert "the cards are not a valid run or set" not in findings


def test_a_rummy_miscount_shows_the_claim_beside_the_recomputed_points() -> None:
    record = rummy("result.points")
    place = record["meta"]["corruption"]
    [finding] = verify(record).to_dict()["findings"]
    response = post(record)
    assert response.context["results"][0].view.verdict == "mismatch"
    findings = findings_html(response)
    assert f"<span>deal {place['deal']}</span>" in findings
    player = record["players"][place["seat"]]
    assert (
        f"<strong>{player}</strong> scored {finding['expected']} in this deal; "
        f"the sheet says {finding['actual']}."
    ) in findings
    html = response.content.decode()
    assert (
        '<td class="num differs"><span class="claimed" title="claimed on the sheet">'
        f"{finding['actual']}</span> {finding['expected']}</td>"
    ) in html


@pytest.mark.parametrize(
    ("record", "table"),
    [
        ({"format": "raspis-rummy/1", "ruleset": "no_such", "players": ["a", "b"]}, "rummy"),
        ({"format": "raspis-poker/1", "ruleset": "no_such", "seats": []}, "poker"),
    ],
    ids=["rummy", "poker"],
)
def test_a_malformed_record_says_why_and_has_no_table(record: Record, table: str) -> None:
    response = post(record)
    [result] = response.context["results"]
    assert result.view.verdict == "malformed"
    assert result.template == f"web/{table}/_report.html"
    findings = findings_html(response)
    assert "The ruleset cannot be read" in findings and "/ruleset in the record." in findings
    html = response.content.decode()
    assert "rummy-sheet" not in html and "poker-hands" not in html
    assert 'class="standings"' not in html


def test_a_legal_club_game_shows_each_hands_winners_pots_and_stacks() -> None:
    record = poker()
    report = verify(record).to_dict()
    response = post(record)
    [result] = response.context["results"]
    assert result.view.verdict == "verified"
    names = [seat["name"] for seat in record["seats"]]
    html = response.content.decode()
    table = html[html.index('<table class="sheet poker-hands">') :]
    table = table[: table.index("</table>")]
    assert table.count('<th scope="row">') == len(report["hands"])
    for hand in report["hands"]:
        row = table[table.index(f'<th scope="row">{hand["number"]}</th>') :]
        row = row[: row.index("</tr>")]
        winners = ", ".join(names[s] for s in hand["winners"])
        assert f"<td>{winners}</td>" in row
        for pot in hand["pots"]:
            assert f"{pot['amount']} to {', '.join(names[s] for s in pot['winners'])}" in row
        cells = re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)
        assert cells == [
            str(v) for pair in zip(hand["net"], hand["stacks"], strict=True) for v in pair
        ]
    # The stacks at the start (each seat's in the record) and at the end (the report's).
    stacks = [(s.name, s.start, s.end) for s in result.view.stacks]
    assert stacks == [
        (seat["name"], seat["stack"], end)
        for seat, end in zip(record["seats"], report["stacks"], strict=True)
    ]


def test_a_casino_game_shows_the_dealers_hand() -> None:
    record = poker("joker_poker")
    response = post(record)
    assert response.context["results"][0].view.verdict == "verified"
    text = page_text(response)
    assert re.search(r"dealer: [a-z ]+, (qualifies|does not qualify)", text)
    assert "Pots" not in text  # the casino game plays against the house, not for pots


@pytest.mark.parametrize(
    ("language", "where", "said"),
    [
        ("en", "hand {hand}, stage {stage}, action {action}", "chose check, which the situation"),
        ("ru", "раздача {hand}, этап {stage}, действие {action}", "выбрал(а) действие «чек»"),
    ],
)
def test_a_poker_finding_is_said_at_its_hand_stage_and_action(
    language: str, where: str, said: str
) -> None:
    record = poker(corruption="bet.action")
    place = record["meta"]["corruption"]
    response = post(record, language)
    assert response.context["results"][0].view.verdict == "illegal"
    findings = findings_html(response)
    assert where.format(**place) in findings
    name = record["seats"][place["seat"]]["name"]
    assert f"<strong>{name}</strong> {said}" in findings
    # The replay goes on past the broken rule: the claims that follow differ, each in words.
    assert "result.payout" in findings
    if language == "ru":
        assert "Итог раздачи у игрока" in findings and "а в записи" in findings
        assert "нарушение" in page_text(response)


def test_one_file_of_the_three_games_gets_each_report_in_its_games_shape(
    make_record: Callable[..., Record],
) -> None:
    lines = [json.dumps(make_record(corrupt="revoke")), json.dumps(rummy()), json.dumps(poker())]
    response = post("\n".join(lines))
    results = response.context["results"]
    assert [r.template for r in results] == [
        "web/_trick_report.html",
        "web/rummy/_report.html",
        "web/poker/_report.html",
    ]
    assert [r.view.verdict for r in results] == ["illegal", "verified", "verified"]
    html = response.content.decode()
    # The trick-taking record keeps its replay; the others have their tables.
    assert 'id="replay-1"' in html and 'id="replay-2"' not in html
    assert "rummy-sheet" in html and "poker-hands" in html


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_game_to_a_loss_limit_is_unfinished_for_its_limit(language: str) -> None:
    """Under a loss limit the game ends when a total reaches it, so an unfinished game says
    that, not a count of deals."""
    record = simulate_rummy({"preset": "joker_rummy", "options": {"loss_limit": 150}}, 3, 2)
    del record["deals"][-1], record["totals"]
    highest = max(record["deals"][-1]["running"])
    response = post(record, language)
    assert response.context["results"][0].view.verdict == "verified"  # a warning only
    said = {
        "en": f"No total reached the loss limit of 150: the highest is {highest}.",
        "ru": f"Ни один итог не достиг предела проигрыша 150: наибольший — {highest}.",
    }
    assert said[language] in findings_html(response)
