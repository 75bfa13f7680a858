"""The poker findings: the codes of docs/poker-format.md, located by hand, stage and action.

A poker finding is the trick-taking one (``findings.Finding``) with the poker game's places:
the hand (раздача) for the deal, the betting stage for the trick, the action for the play.
Both are written by the shared ``located_json``, with these places in the order of the
deal, the trick and the play, and both quote a NaN alike (``_json_value``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..findings import Severity, _json_value, located_json


class PokerCode(StrEnum):
    """The finding codes of docs/poker-format.md; ``severity`` is each one's level."""

    RECORD_JSON = "record.json"  #: not JSON, or not an object
    RECORD_SCHEMA = "record.schema"  #: a field missing or of the wrong type
    RECORD_RULESET = "record.ruleset"  #: unknown preset, unknown option, bad value
    RECORD_PLAYERS = "record.players"  #: seat count out of range, or a repeated name
    RECORD_CARD = "record.card"  #: a card code that cannot be read
    HAND_DEALER = "hand.dealer"  #: not the dealer the rotation gives
    HAND_CARDS = "hand.cards"  #: the wrong number of cards, or cards to a seat sitting out
    HAND_UNKNOWN_CARD = "hand.unknown_card"  #: a card not in this deck
    HAND_DUPLICATE_CARD = "hand.duplicate_card"  #: one card seen twice in a hand
    HAND_ANTE = "hand.ante"  #: casino: an ante out of range or above the stack
    BET_ORDER = "bet.order"  #: out of turn, nothing to do, or after the round is over
    BET_AFTER_FOLD = "bet.after_fold"  #: by a seat that has folded or is not in the hand
    BET_ACTION = "bet.action"  #: an action the situation does not allow
    BET_AMOUNT = "bet.amount"  #: below the minimum, above the stack, a wrong call amount
    BET_MISSING = "bet.missing"  #: a seat still had to act when its stage ended
    EXCHANGE_COUNT = "exchange.count"  #: too few or many cards, exchanges, or stock
    EXCHANGE_CARD = "exchange.card"  #: a discarded card the seat does not hold
    SHOWDOWN_CARDS = "showdown.cards"  #: shown cards not the seat's, or cards left unknown
    SHOWDOWN_RANK = "showdown.rank"  #: a claimed category differs
    RESULT_WINNER = "result.winner"  #: claimed winners of the hand or of a pot differ
    RESULT_POT = "result.pot"  #: claimed pots differ in number or amount
    RESULT_PAYOUT = "result.payout"  #: a claimed net differs
    RESULT_STACK = "result.stack"  #: a claimed stack differs

    @property
    def severity(self) -> Severity:
        mismatch = self.startswith("result.") or self is PokerCode.SHOWDOWN_RANK
        return Severity.MISMATCH if mismatch else Severity.ERROR


@dataclass(frozen=True, slots=True)
class PokerFinding:
    """One problem, located as players count: 1-based hand, stage and action, 0-based seat."""

    code: PokerCode
    message: str
    hand: int | None = None
    stage: int | None = None
    action: int | None = None
    seat: int | None = None
    player: str | None = None
    expected: Any = None
    actual: Any = None
    path: str | None = None

    @property
    def places(self) -> tuple[int | None, int | None, int | None]:
        """Its three places, outermost first: hand, stage, action."""
        return (self.hand, self.stage, self.action)

    @property
    def level(self) -> Severity:
        return self.code.severity

    def to_dict(self, *, null_path: bool = False) -> dict[str, Any]:
        return located_json(
            str(self.code),
            str(self.level),
            self.message,
            (("hand", self.hand), ("stage", self.stage), ("action", self.action)),
            seat=self.seat,
            player=self.player,
            expected=_json_value(self.expected),
            actual=_json_value(self.actual),
            path=self.path,
            null_path=null_path,
        )


__all__ = ["PokerCode", "PokerFinding"]
