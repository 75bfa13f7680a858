"""Findings written in the reader's language from their code and fields (web.findings)."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from replay import Code, split_documents, verify
from replay.poker.findings import PokerCode
from replay.rummy.findings import Code as RummyCode
from web.findings import (
    CATALOGUE,
    Catalogue,
    Places,
    finding_text,
    findings_written,
    place_text,
    where_text,
)
from web.poker.findings import POKER_CATALOGUE, POKER_PLACES
from web.reports import unsaved_findings
from web.rummy.findings import RUMMY_CATALOGUE, RUMMY_PLACES

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


#: Each game's catalogue and the codes of its engine.
GAMES = [
    pytest.param(CATALOGUE, Code, id="tricks"),
    pytest.param(RUMMY_CATALOGUE, RummyCode, id="rummy"),
    pytest.param(POKER_CATALOGUE, PokerCode, id="poker"),
]


@pytest.mark.parametrize(("catalogue", "codes"), GAMES)
def test_every_finding_code_of_the_engine_has_a_sentence(catalogue: Catalogue, codes: Any) -> None:
    assert {str(code) for code in codes} <= set(catalogue)


@pytest.mark.parametrize(("catalogue", "codes"), GAMES)
def test_every_sentence_is_translated_into_russian(catalogue: Catalogue, codes: Any) -> None:
    def written(language: str) -> dict[str, list[str]]:
        with translation.override(language):
            return {
                code: [str(s) for s in (sentence.text, sentence.absent) if s is not None]
                for code, sentence in catalogue.items()
            }

    english, russian = written("en"), written("ru")
    assert [code for code in catalogue if set(russian[code]) & set(english[code])] == []


def _golden_reports() -> list[tuple[str, dict[str, Any], list[str]]]:
    reports = []
    for path in sorted(GOLDEN.glob("*.record.json")):
        if path.name.startswith("rummy_"):  # the site writes the trick-taking findings
            continue
        for document in split_documents(path.read_bytes(), path.name):
            if document.error is None:
                report = verify(document.value).to_dict()
                players = (
                    document.value.get("players") if isinstance(document.value, dict) else None
                )
                names = [str(p) for p in players] if isinstance(players, list) else []
                reports.append((path.name, report, names))
    return reports


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_golden_finding_is_written_from_its_fields_not_its_message(language: str) -> None:
    seen = set()
    with translation.override(language):
        for name, report, players in _golden_reports():
            for finding in unsaved_findings(report):
                text = str(finding_text(finding, players))
                assert finding.message not in text, (name, finding.code)
                assert "%(" not in text and "{" not in text, (name, text)
                assert " None" not in text, (name, text)
                seen.add(finding.code)
    # The golden records hold most codes; each of them was written above.
    assert len(seen) >= 25


def test_a_revoke_names_the_player_and_the_card_in_russian() -> None:
    record = json.loads((GOLDEN / "play_revoke.record.json").read_text())
    [finding] = [f for f in unsaved_findings(verify(record).to_dict()) if f.code == "play.revoke"]
    with translation.override("ru"):
        text = str(finding_text(finding, record["players"]))
        assert f"<strong>{finding.player}</strong> сыграл(а) " in text
        assert '<span class="card' in text
        assert "не пошёл (не пошла) в масть" in text
        assert (
            where_text(finding)
            == f"раздача {finding.deal}, взятка {finding.trick}, ход {finding.play}"
        )


def _family_reports(pattern: str) -> list[tuple[str, dict[str, Any], list[str]]]:
    reports = []
    for path in sorted(GOLDEN.glob(pattern)):
        report = verify(json.loads(path.read_text(encoding="utf-8")))
        reports.append((path.name, report.to_dict(), list(report.players)))
    return reports


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(
    ("pattern", "places", "catalogue", "least"),
    [
        pytest.param("rummy_*.record.json", RUMMY_PLACES, RUMMY_CATALOGUE, 8, id="rummy"),
        pytest.param("poker/*.record.json", POKER_PLACES, POKER_CATALOGUE, 12, id="poker"),
    ],
)
def test_every_golden_rummy_and_poker_finding_is_written_from_its_fields(
    language: str, pattern: str, places: Places, catalogue: Catalogue, least: int
) -> None:
    seen = set()
    with translation.override(language):
        for name, report, players in _family_reports(pattern):
            written = findings_written(report["findings"], places, catalogue, players)
            assert len(written) == len(report["findings"])
            for item, raw in zip(written, report["findings"], strict=True):
                # The catalogue's sentence (which may hold a short message, "a name is
                # repeated", as part of its own), not the engine's message.
                assert raw["code"] in catalogue and item.text != raw["message"], name
                assert "%(" not in item.text and "{" not in item.text, (name, item.text)
                assert " None" not in item.text, (name, item.text)
                # A finding at no seat (the casino dealer's) is not said of "a player".
                assert "<strong>a player</strong>" not in item.text, (name, item.text)
                assert item.finding.places == tuple(raw[key] for key in places.keys)
                seen.add(raw["code"])
    assert len(seen) >= least


@pytest.mark.parametrize(
    ("places", "language", "said"),
    [
        (
            RUMMY_PLACES,
            "en",
            ["the whole game", "deal 2", "deal 2, turn 17", "deal 2, turn 17, action 1"],
        ),
        (
            RUMMY_PLACES,
            "ru",
            ["вся игра", "раздача 2", "раздача 2, ход 17", "раздача 2, ход 17, действие 1"],
        ),
        (
            POKER_PLACES,
            "en",
            ["the whole game", "hand 2", "hand 2, stage 17", "hand 2, stage 17, action 1"],
        ),
        (
            POKER_PLACES,
            "ru",
            ["вся игра", "раздача 2", "раздача 2, этап 17", "раздача 2, этап 17, действие 1"],
        ),
    ],
)
def test_a_place_is_said_as_the_games_players_count(
    places: Places, language: str, said: list[str]
) -> None:
    values = [(None, None, None), (2, None, None), (2, 17, None), (2, 17, 1)]
    with translation.override(language):
        assert [place_text(places, v) for v in values] == said


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "The dealer's hand makes one pair; the record says two pair."),
        ("ru", "У дилера комбинация «пара», а в записи «две пары»."),
    ],
)
def test_the_casino_dealers_hand_is_said_to_be_the_dealers(language: str, said: str) -> None:
    """The casino dealer has no seat: a finding of its hand is not said of "a player"."""
    finding = {"code": "showdown.rank", "severity": "mismatch", "hand": 1, "stage": None}
    finding.update(action=None, seat=None, player=None, message="the dealer's hand differs")
    finding.update(expected="one_pair", actual="two_pair")
    with translation.override(language):
        [written] = findings_written([finding], POKER_PLACES, POKER_CATALOGUE, ["Anna", "Boris"])
        assert html.unescape(written.text) == said
        assert written.where == {"en": "hand 1", "ru": "раздача 1"}[language]
