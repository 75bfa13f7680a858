"""The registry of game families, and one ``verify`` for all of them: a record's ``format``
names its family (docs/format.md).

Each family reads and replays the records of its format on its own and says what it is in
one ``GameFamily`` (``replay.family``); ``FAMILIES`` lists them, and everything else here is
found through it. A record whose format no family knows is read as ``raspis/1``, the format
every record had before there were others, so that its report lists the wrong ``format`` with
every other problem of the record (docs/format.md conventions: one report lists every
problem).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .family import Family, GameFamily
from .findings import Finding
from .poker.family import FAMILY as POKER
from .poker.findings import PokerFinding
from .poker.report import PokerReport
from .rummy.family import FAMILY as RUMMY
from .rummy.findings import Finding as RummyFinding
from .rummy.report import Report as RummyReport
from .tricks.family import FAMILY as TRICKS
from .tricks.report import Report

#: Every family the engine knows, the trick-taking first: it reads records of no known format.
FAMILIES: Final[tuple[GameFamily, ...]] = (TRICKS, RUMMY, POKER)

#: A finding of any family's report: each has its code, level, seat, player and path.
AnyFinding = Finding | RummyFinding | PokerFinding
#: The report of any family's record: each has the verdict, the findings and ``to_dict``.
AnyReport = Report | RummyReport | PokerReport

_BY_NAME: Final = {family.name: family for family in FAMILIES}
_BY_FORMAT: Final = {family.format: family for family in FAMILIES}

#: The names of a finding's three places in each family, in their order (docs/format.md,
#: docs/rummy.md, docs/poker-format.md).
PLACES: Final[dict[Family, tuple[str, str, str]]] = {f.name: f.places for f in FAMILIES}

#: Every family's presets, by name: no name is two families'.
PRESET_FAMILIES: Final[dict[str, Family]] = {
    preset: family.name for family in FAMILIES for preset in family.presets
}


def family_named(name: Family | str) -> GameFamily:
    """The family of that name (``Family`` or its value)."""
    return _BY_NAME[Family(name)]


def seats_compete(preset: str) -> bool:
    """Whether the seats of a game of ``preset`` play one another, so that their places rank
    them: in every game but the poker's casino, where each seat plays the house alone."""
    family = PRESET_FAMILIES.get(preset)
    return family is None or _BY_NAME[family].seats_compete(preset)


def standings(family: Family | str, totals: Sequence[Any]) -> tuple[list[int], set[int]]:
    """The places (1 is best; equal totals share one) and the winners of final totals, by the
    family's measure (``GameFamily.standings``)."""
    return family_named(family).standings(totals)


def family_of(report: AnyReport) -> Family:
    """The family whose rules made ``report``."""
    return next(family.name for family in FAMILIES if isinstance(report, family.report))


def verify(obj: Any, stored_rulesets: Mapping[str, Any] | None = None) -> AnyReport:
    """A decoded record → its report, by the family of its ``format``. Never raises on bad
    input."""
    name = obj.get("format") if isinstance(obj, dict) else None
    family = _BY_FORMAT.get(name, TRICKS) if type(name) is str else TRICKS
    report: AnyReport = family.verify(obj, stored_rulesets)
    return report
