"""Raspis' rules engine: replay and verify records of Расписной покер (pure Python).

It imports nothing outside the standard library, so clubs can use it on its own:
``python -m replay verify game.json``.

A package of games: what every family shares is here (cards and decks, findings, the
report's shapes, exact scores, record files, the command line), each family is a
subpackage (``tricks``: Расписной покер, format ``raspis/1``; ``rummy``: «Джокер», format
``raspis-rummy/1``; ``poker``: the joker poker games, format ``raspis-poker/1``), and
``verify`` dispatches on a record's ``format`` (``formats``). ``simulate`` makes records of
the trick-taking family, ``rummy.simulate`` of the rummy, ``poker.simulate`` of the poker.
"""

from .family import Family, GameFamily
from .files import (
    Bounds,
    Document,
    Excess,
    Line,
    TooLarge,
    line_document,
    record_json,
    split_documents,
    split_file,
    zip_within,
)
from .findings import Code, Finding, Severity
from .formats import (
    FAMILIES,
    PLACES,
    PRESET_FAMILIES,
    AnyFinding,
    AnyReport,
    family_named,
    family_of,
    seats_compete,
    standings,
    verify,
)
from .poker.report import PokerReport
from .report import Verdict
from .rummy.report import Report as RummyReport
from .tricks.game import replay
from .tricks.game import verify as verify_tricks
from .tricks.limits import MAX_DEALS, MAX_PLAYS, record_excess
from .tricks.parse import Record, parse_record
from .tricks.report import DealResult, JokerPlay, Report, malformed
from .tricks.rulesets import PRESETS, Ruleset, preset_ruleset, resolve_ruleset, schedule_for
from .tricks.state import NoSuchMoment, state_at

ENGINE_VERSION = "1.0.0"

__all__ = [
    "ENGINE_VERSION",
    "FAMILIES",
    "MAX_DEALS",
    "MAX_PLAYS",
    "PLACES",
    "PRESETS",
    "PRESET_FAMILIES",
    "AnyFinding",
    "AnyReport",
    "Bounds",
    "Code",
    "DealResult",
    "Document",
    "Excess",
    "Family",
    "Finding",
    "GameFamily",
    "JokerPlay",
    "Line",
    "NoSuchMoment",
    "PokerReport",
    "Record",
    "Report",
    "Ruleset",
    "RummyReport",
    "Severity",
    "TooLarge",
    "Verdict",
    "family_named",
    "family_of",
    "line_document",
    "malformed",
    "parse_record",
    "preset_ruleset",
    "record_excess",
    "record_json",
    "replay",
    "resolve_ruleset",
    "schedule_for",
    "seats_compete",
    "split_documents",
    "split_file",
    "standings",
    "state_at",
    "verify",
    "verify_tricks",
    "zip_within",
]
