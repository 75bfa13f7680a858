"""Findings written in the reader's language from their code and fields (web.findings)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from replay.engine import Code, split_documents, verify
from web.findings import CATALOGUE, finding_text, where_text
from web.reports import unsaved_findings

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_every_finding_code_of_the_engine_has_a_sentence() -> None:
    assert {str(code) for code in Code} <= set(CATALOGUE)


def test_every_sentence_is_translated_into_russian() -> None:
    def written(language: str) -> dict[str, str]:
        with translation.override(language):
            return {code: str(sentence.text) for code, sentence in CATALOGUE.items()}

    english, russian = written("en"), written("ru")
    assert [code for code in CATALOGUE if russian[code] == english[code]] == []


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
