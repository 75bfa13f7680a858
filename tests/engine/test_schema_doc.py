"""``docs/record.schema.json``, the published JSON Schema of the ``raspis/1`` record.

The schema must accept every golden record the engine can replay (so a tool that
validates before uploading never rejects a good record), and reject the goldens that are
malformed for a reason a schema can see: not an object, a missing or mistyped field, an
unreadable card, an unknown or mistyped option.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from replay import split_documents

from .test_golden import GOLDEN, expected_report, golden_names, record_file

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "record.schema.json"
SCHEMA_VISIBLE = {"record.json", "record.schema", "record.card"}


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def golden_records() -> list[tuple[str, Any, dict[str, Any]]]:
    """Every ``raspis/1`` record of the goldens with its expected report: (id, record,
    report). The rummy's goldens are of another format, which this schema does not describe."""
    cases = []
    for name in golden_names():
        if name.startswith("rummy_"):
            continue
        path = record_file(name)
        expected = expected_report(name)
        if ".bulk." not in path.name:
            cases.append((name, json.loads(path.read_text(encoding="utf-8")), expected))
            continue
        documents = split_documents(path.read_bytes(), path.name)
        for document, want in zip(documents, expected["documents"], strict=True):
            if document.error is None:
                cases.append((f"{name}:{document.label}", document.value, want["report"]))
    return cases


CASES = golden_records()


def test_the_goldens_are_found() -> None:
    assert GOLDEN.is_dir()
    assert len(CASES) > 60


@pytest.mark.parametrize(
    ("record", "report"),
    [(record, report) for _, record, report in CASES if report["verdict"] != "malformed"],
    ids=[name for name, _, report in CASES if report["verdict"] != "malformed"],
)
def test_the_schema_accepts_every_replayable_golden(
    validator: Draft202012Validator, record: Any, report: dict[str, Any]
) -> None:
    errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(record)]
    assert errors == []


def _schema_visible(record: Any, report: dict[str, Any]) -> bool:
    codes = {f["code"] for f in report["findings"]}
    if codes & SCHEMA_VISIBLE:
        return True
    # A formula's grammar (and whether scoring formula has both), and whether the teams
    # hold the record's seats, are no schema's to see.
    seen = [
        f
        for f in report["findings"]
        if f["code"] == "record.ruleset"
        and not f["path"].startswith("/ruleset/options/formula_")
        and not f["message"].startswith("teams must hold")
    ]
    return bool(seen) and isinstance(record.get("ruleset"), dict)


@pytest.mark.parametrize(
    "record",
    [record for _, record, report in CASES if _schema_visible(record, report)],
    ids=[name for name, record, report in CASES if _schema_visible(record, report)],
)
def test_the_schema_rejects_what_it_can_see_is_malformed(
    validator: Draft202012Validator, record: Any
) -> None:
    assert not validator.is_valid(record)


def test_the_schema_lists_the_options_of_rules_9() -> None:
    from .test_golden import RULES_9_OPTIONS

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert set(schema["$defs"]["options"]["properties"]) == RULES_9_OPTIONS
