"""One ``verify`` for every game family: a record's ``format`` names its family (docs/format.md).

Each family reads and replays the records of its formats on its own; ``FORMATS`` is where a
family adds its own (``raspis/1`` the trick-taking family; ``raspis-rummy/1`` the rummy's,
docs/rummy.md; ``raspis-poker/1`` the poker games', docs/poker-format.md). A
record whose format no family knows is read as ``raspis/1``, the format every record had
before there were others, so that its report lists the wrong ``format`` with every other
problem of the record (docs/format.md conventions: one report lists every problem).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from .poker import game as poker
from .poker.parse import FORMAT as POKER_FORMAT
from .poker.report import PokerReport
from .rummy import game as rummy
from .rummy.report import Report as RummyReport
from .tricks import game as tricks
from .tricks.report import Report

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


def verify(obj: Any, stored_rulesets: Mapping[str, Any] | None = None) -> AnyReport:
    """A decoded record → its report, by the family of its ``format``. Never raises on bad
    input."""
    name = obj.get("format") if isinstance(obj, dict) else None
    family = FORMATS.get(name, _UNKNOWN) if type(name) is str else _UNKNOWN
    return family(obj, stored_rulesets)
