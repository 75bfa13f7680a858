"""The rummy's findings (docs/rummy.md "Finding codes"): located by deal, turn and action.

The codes are the rummy's own, with the shapes and severities every report shares; a
finding's keys are those of the trick-taking family with ``turn`` and ``action`` in place of
``trick`` and ``play``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..findings import Severity, _json_value, located_json, pointer


class Code(StrEnum):
    RECORD_JSON = "record.json"
    RECORD_SCHEMA = "record.schema"
    RECORD_RULESET = "record.ruleset"
    RECORD_PLAYERS = "record.players"
    RECORD_CARD = "record.card"
    GAME_INCOMPLETE = "game.incomplete"
    GAME_EXTRA_DEAL = "game.extra_deal"
    DEAL_DEALER = "deal.dealer"
    DEAL_CARDS = "deal.cards"
    DEAL_UNKNOWN_CARD = "deal.unknown_card"
    DEAL_DUPLICATE_CARD = "deal.duplicate_card"
    DEAL_UNFINISHED = "deal.unfinished"
    TURN_ORDER = "turn.order"
    TURN_DRAW = "turn.draw"
    TURN_DISCARD = "turn.discard"
    TURN_AFTER_OUT = "turn.after_out"
    MELD_NOT_HELD = "meld.not_held"
    MELD_FIRST_ROUND = "meld.first_round"
    LAYOFF_BEFORE_OPENING = "layoff.before_opening"
    MELD_INVALID = "meld.invalid"
    MELD_OPENING = "meld.opening"
    LAYOFF_INVALID = "layoff.invalid"
    JOKER_REPLACE = "joker.replace"
    JOKER_KEPT = "joker.kept"
    MELD_JOIN = "meld.join"
    RESULT_GOING_OUT = "result.going_out"
    RESULT_LEFT = "result.left"
    RESULT_POINTS = "result.points"
    RESULT_RUNNING = "result.running"
    RESULT_TOTAL = "result.total"

    @property
    def penalised(self) -> bool:
        """Whether ``violation_penalty`` fines this code (every ``meld.*``, ``layoff.*`` and
        ``joker.*`` but ``meld.not_held``)."""
        return self in PENALISED


PENALISED = frozenset(
    c
    for c in Code
    if c.value.startswith(("meld.", "layoff.", "joker.")) and c is not Code.MELD_NOT_HELD
)
SEVERITY: dict[Code, Severity] = {code: Severity.ERROR for code in Code}
SEVERITY[Code.GAME_INCOMPLETE] = Severity.WARNING
for _code in Code:
    if _code.value.startswith("result."):
        SEVERITY[_code] = Severity.MISMATCH


@dataclass(frozen=True, slots=True)
class Finding:
    code: Code
    message: str
    severity: Severity | None = None
    deal: int | None = None
    turn: int | None = None
    action: int | None = None
    seat: int | None = None
    player: str | None = None
    expected: Any = None
    actual: Any = None
    path: str | None = None

    @property
    def places(self) -> tuple[int | None, int | None, int | None]:
        """Its three places, outermost first: deal, turn, action."""
        return (self.deal, self.turn, self.action)

    @property
    def level(self) -> Severity:
        return self.severity or SEVERITY[self.code]

    def to_dict(self, *, null_path: bool = False) -> dict[str, Any]:
        return located_json(
            str(self.code),
            str(self.level),
            self.message,
            (("deal", self.deal), ("turn", self.turn), ("action", self.action)),
            seat=self.seat,
            player=self.player,
            expected=_json_value(self.expected),
            actual=_json_value(self.actual),
            path=self.path,
            null_path=null_path,
        )


__all__ = ["PENALISED", "SEVERITY", "Code", "Finding", "pointer"]
