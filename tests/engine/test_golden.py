"""Golden records: hand-computed reports compared with the engine's, field by field.

Each ``tests/golden/NAME.record.json`` (one record) or ``NAME.bulk.json`` /
``NAME.bulk.jsonl`` (a bulk file, split by ``split_documents``) has a
``NAME.report.json`` beside it: the full report of docs/format.md, worked out by hand from
docs/rules.md. Its ``_why`` says how. The expected ``ruleset`` may
leave out ``options``, which are long: they are then checked to be the preset's resolved
options with the record's overrides (RULES §8, §9). Findings are compared as a list, in
order, message included, as reviewed diffs (the OpenSpiel playthrough idea).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replay import Document, malformed, preset_ruleset, split_documents, verify
from replay.rummy import findings as rummy_findings
from replay.rummy import rulesets as rummy_rulesets

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

#: The option names of RULES §9: every report lists all of them, resolved.
RULES_9_OPTIONS = {
    "deck",
    "jokers",
    "declarations",
    "lead_highest_suits",
    "joker_silent_high",
    "later_joker_wins",
    "joker_highest_suit_winner",
    "joker_demand_first_trick_only",
    "trump",
    "trump_card_source",
    "bidding",
    "first_bidder",
    "first_leader",
    "last_bidder_restriction",
    "three_passes_rule",
    "dark_bids",
    "dark_multiplier",
    "must_trump",
    "schedule",
    "forehead_deal",
    "kinds_allowed",
    "no_trump_bids",
    "scoring",
    "pass_made",
    "made_per_trick",
    "over_per_trick",
    "under_per_missing",
    "all_in_double",
    "kind_multipliers",
    "golden_per_trick",
    "misere_per_trick",
    "misere_clean_bonus",
    "forehead_made_per_trick",
    "forehead_under_per_missing",
    "points_per_trick",
    "exact_bonus",
    "off_bid_penalty",
    "revoke_penalty",
    "min_players",
    "max_players",
    "identical_cards",
    "formula_made",
    "formula_missed",
    "teams",
}


def golden_names() -> list[str]:
    return sorted(p.name.removesuffix(".report.json") for p in GOLDEN.glob("*.report.json"))


def record_file(name: str) -> Path:
    """The input of a golden: one record, or a bulk file."""
    for suffix in (".record.json", ".bulk.json", ".bulk.jsonl"):
        path = GOLDEN / (name + suffix)
        if path.exists():
            return path
    raise FileNotFoundError(f"no record for the golden {name}")


def expected_report(name: str) -> dict[str, Any]:
    data = json.loads((GOLDEN / f"{name}.report.json").read_text(encoding="utf-8"))
    data.pop("_why", None)
    return data


def report_of(document: Document) -> dict[str, Any]:
    """A bulk file's document → its report; a line that is not a record keeps its finding."""
    if document.error is not None:
        return malformed([document.error], None).to_dict()
    return verify(document.value).to_dict()


def resolved_options(ruleset: Any, family: Any = "raspis/1") -> dict[str, Any]:
    """The options a report must list for the record's ``ruleset`` (RULES §9; for a rummy
    record docs/rummy.md "Options": the preset's, with the record's overrides)."""
    if family == "raspis-rummy/1":
        name = ruleset if isinstance(ruleset, str) else ruleset["preset"]
        overrides = {} if isinstance(ruleset, str) else ruleset.get("options", {})
        return {**rummy_rulesets.DEFAULTS, **rummy_rulesets.PRESETS[name], **overrides}
    if isinstance(ruleset, str):
        return dict(preset_ruleset(ruleset).options)
    options = dict(preset_ruleset(ruleset["preset"]).options)
    overrides = ruleset.get("options", {})
    options.update({k: v for k, v in overrides.items() if k != "kind_multipliers"})
    options["kind_multipliers"] = {
        **options["kind_multipliers"],
        **overrides.get("kind_multipliers", {}),
    }
    return options


def assert_report(actual: dict[str, Any], expected: dict[str, Any], record: Any) -> None:
    actual = dict(actual)
    expected = dict(expected)
    if expected.get("ruleset") is not None and "options" not in expected["ruleset"]:
        assert actual["ruleset"] is not None, "the report lost its ruleset"
        options = actual["ruleset"]["options"]
        assert options == resolved_options(record["ruleset"], record.get("format"))
        actual["ruleset"] = {k: v for k, v in actual["ruleset"].items() if k != "options"}
    assert actual.keys() == expected.keys()
    assert actual["findings"] == expected["findings"]
    assert actual == expected


@pytest.mark.parametrize("name", golden_names())
def test_golden(name: str) -> None:
    path = record_file(name)
    expected = expected_report(name)
    if ".bulk." not in path.name:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert_report(verify(record).to_dict(), expected, record)
        return
    documents = split_documents(path.read_bytes(), path.name)
    assert [d.label for d in documents] == [d["label"] for d in expected["documents"]]
    for document, want in zip(documents, expected["documents"], strict=True):
        assert_report(report_of(document), want["report"], document.value)


def test_every_finding_code_has_a_golden() -> None:
    """docs/format.md's codes each appear in at least one expected report, but
    ``play.hands``: every way a dealt hand can differ from its seat's plays is reported
    as ``play.count``, ``play.not_held`` or ``deal.cards`` (docs/rules.md, decision 18),
    so no record makes it (``play_count_short_trick`` shows the case it once covered);
    and the importers' ``import.*`` codes, which no replay gives, in tests/importers."""
    from replay import Code

    seen = set()
    for name in golden_names():
        expected = expected_report(name)
        reports = [d["report"] for d in expected.get("documents", [])] or [expected]
        seen |= {f["code"] for report in reports for f in report["findings"]}
    assert {str(c) for c in Code if not c.startswith("import.")} - seen == {"play.hands"}


def test_every_rummy_finding_code_has_a_golden() -> None:
    """docs/rummy.md's codes each appear in a rummy golden, but ``record.json``: a record
    that is no JSON object names no format, and its report is every family's one."""
    seen = set()
    rummy_presets = set()
    for name in golden_names():
        if not name.startswith("rummy_"):
            continue
        record = json.loads(record_file(name).read_text(encoding="utf-8"))
        assert record["format"] == "raspis-rummy/1"
        ruleset = record["ruleset"]
        rummy_presets.add(ruleset if isinstance(ruleset, str) else ruleset["preset"])
        seen |= {f["code"] for f in expected_report(name)["findings"]}
    assert {str(c) for c in rummy_findings.Code} - seen == {"record.json"}
    assert rummy_presets == set(rummy_rulesets.PRESETS)


def test_every_preset_has_a_golden() -> None:
    presets = set()
    for name in golden_names():
        if ".bulk." in record_file(name).name:
            continue
        record = json.loads(record_file(name).read_text(encoding="utf-8"))
        if isinstance(record, dict):
            ruleset = record.get("ruleset")
            presets.add(ruleset if isinstance(ruleset, str) else (ruleset or {}).get("preset"))
    assert {"detsky", "classic", "podkidnoy", "two_jacks", "joker54", "rotating"} <= presets
    assert {"georgian", "oh_hell"} <= presets


def test_reports_list_every_option_of_rules_9() -> None:
    for preset in ("detsky", "classic", "podkidnoy", "two_jacks", "joker54", "rotating"):
        assert set(preset_ruleset(preset).options) == RULES_9_OPTIONS
    for preset in ("georgian", "oh_hell"):
        assert set(preset_ruleset(preset).options) == RULES_9_OPTIONS
