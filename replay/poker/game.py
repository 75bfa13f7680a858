"""The poker replay: a ``raspis-poker/1`` record → its report (docs/poker-format.md).

Hands are replayed in order, each from the stacks the previous one left; the club game's
dealer moves clockwise to the next seat with chips. Nothing here raises on bad input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .casino import CasinoHand
from .club import ClubHand
from .findings import PokerCode
from .parse import parse_record
from .report import HandResult, PokerReport, poker_report
from .rulesets import Game
from .table import Log

#: Shown each hand's replay (its number, 1-based) before it runs: ``state`` watches one.
Observer = Callable[[int, CasinoHand | ClubHand], None]


def verify(
    obj: Any,
    stored_rulesets: Mapping[str, Any] | None = None,
    observe: Observer | None = None,
) -> PokerReport:
    """A decoded record → its report. ``stored_rulesets`` (the service's) name trick-taking
    rulesets only, so a poker record's ruleset is always a preset of its own."""
    record, ruleset, findings = parse_record(obj)
    if record is None:
        return poker_report(findings, ruleset, [], None, [])
    log = Log(record.players)
    stacks = list(record.stacks)
    results: list[HandResult] = []
    dealer = record.first_dealer
    n = len(stacks)
    for number, hand in enumerate(record.hands, 1):
        log.hand = number
        replay: CasinoHand | ClubHand
        if record.ruleset.game is Game.CASINO:
            replay = CasinoHand(record.ruleset, log, hand, stacks)
        else:
            if number > 1:
                dealer = next(
                    (s for s in ((dealer + k) % n for k in range(1, n + 1)) if stacks[s] > 0),
                    dealer,
                )
            replay = ClubHand(record.ruleset, log, hand, stacks, dealer)
        if observe is not None:
            observe(number, replay)
        result = replay.replay()
        results.append(result)
        stacks = result.stacks
    log.hand = None
    if record.final_stacks is not None:
        for seat, (want, got) in enumerate(zip(stacks, record.final_stacks, strict=True)):
            if want != got:
                log.add(
                    PokerCode.RESULT_STACK,
                    f"the claimed final stack is {got}, not {want}",
                    seat=seat,
                    expected=want,
                    actual=got,
                    path=("stacks", seat),
                )
    return poker_report(log.findings, record.ruleset, results, stacks, record.players)


__all__ = ["Observer", "verify"]
