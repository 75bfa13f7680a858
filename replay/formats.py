"""One ``verify`` for every game family: a record's ``format`` names its family (docs/format.md).

Each family reads and replays the records of its formats on its own; ``FORMATS`` is where a
family adds its own (``raspis/1`` the trick-taking family; ``raspis-rummy/1`` the rummy's,
docs/rummy.md; ``raspis-poker/1`` the poker games', docs/poker-format.md). A
record whose format no family knows is read as ``raspis/1``, the format every record had
before there were others, so that its report lists the wrong ``format`` with every other
problem of the record (docs/format.md conventions: one report lists every problem).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any, Final

from .findings import Finding
from .poker import game as poker
from .poker.findings import PokerFinding
from .poker.parse import FORMAT as POKER_FORMAT
from .poker.report import PokerReport
from .poker.rulesets import PRESETS as POKER_PRESETS
from .poker.rulesets import Game as PokerGame
from .rummy import game as rummy
from .rummy.findings import Finding as RummyFinding
from .rummy.report import Report as RummyReport
from .rummy.rulesets import PRESETS as RUMMY_PRESETS
from .tricks import game as tricks
from .tricks.report import Report
from .tricks.rulesets import PRESETS as TRICKS_PRESETS

#: A finding of any family's report: each has its code, level, seat, player and path.
AnyFinding = Finding | RummyFinding | PokerFinding
#: The report of any family's record: each has the verdict, the findings and ``to_dict``.
AnyReport = Report | RummyReport | PokerReport
#: A family's verifier: a decoded record and the service's stored rulesets → its report.
Verifier = Callable[[Any, Mapping[str, Any] | None], AnyReport]

FORMATS: Final[dict[str, Verifier]] = {
    "raspis/1": tricks.verify,
    "raspis-rummy/1": rummy.verify,
    POKER_FORMAT: poker.verify,
}
_UNKNOWN: Final = tricks.verify  #: reports the format as not ``raspis/1``


class Family(StrEnum):
    """The game families, each with its format, rules and report."""

    TRICKS = "tricks"  #: Расписной покер and its kin, ``raspis/1``
    RUMMY = "rummy"  #: «Джокер», ``raspis-rummy/1``
    POKER = "poker"  #: the joker poker games, ``raspis-poker/1``


#: The names of a finding's three places in each family, in their order (docs/format.md,
#: docs/rummy.md, docs/poker-format.md).
PLACES: Final[dict[Family, tuple[str, str, str]]] = {
    Family.TRICKS: ("deal", "trick", "play"),
    Family.RUMMY: ("deal", "turn", "action"),
    Family.POKER: ("hand", "stage", "action"),
}

#: Every family's presets, by name: no name is two families'.
PRESET_FAMILIES: Final[dict[str, Family]] = {
    **dict.fromkeys(TRICKS_PRESETS, Family.TRICKS),
    **dict.fromkeys(RUMMY_PRESETS, Family.RUMMY),
    **dict.fromkeys(POKER_PRESETS, Family.POKER),
}


def seats_compete(preset: str) -> bool:
    """Whether the seats of a game of ``preset`` play one another, so that their places rank
    them: in every game but the casino's, where each seat plays the house alone."""
    casino = POKER_PRESETS.get(preset)
    return casino is None or casino[0] is not PokerGame.CASINO


def standings(family: Family | str, totals: Sequence[Any]) -> tuple[list[int], set[int]]:
    """The places (1 is best; equal totals share one, as 1, 1, 3) and the winners of final
    totals, by the family's measure: the highest total in the trick-taking family, the
    lowest in the rummy (RUMMY §8), the most chips won in the poker, where a seat that won
    nothing is no winner."""
    keys = [-t for t in totals] if family == Family.RUMMY else list(totals)
    places = [1 + sum(1 for other in keys if other > key) for key in keys]
    best = max(keys, default=0)
    winners = {
        seat
        for seat, key in enumerate(keys)
        if key == best and (family != Family.POKER or best > 0)
    }
    return places, winners


def family_of(report: AnyReport) -> Family:
    """The family whose rules made ``report``."""
    if isinstance(report, RummyReport):
        return Family.RUMMY
    if isinstance(report, PokerReport):
        return Family.POKER
    return Family.TRICKS


def verify(obj: Any, stored_rulesets: Mapping[str, Any] | None = None) -> AnyReport:
    """A decoded record → its report, by the family of its ``format``. Never raises on bad
    input."""
    name = obj.get("format") if isinstance(obj, dict) else None
    family = FORMATS.get(name, _UNKNOWN) if type(name) is str else _UNKNOWN
    return family(obj, stored_rulesets)
