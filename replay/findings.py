"""Findings: the errors of a record as data (docs/format.md "Finding codes").

Every rule check returns findings instead of raising, so one report lists every problem
(errors as data). The codes and severities are the public contract.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    MISMATCH = "mismatch"
    PENALTY = "penalty"


class Code(StrEnum):
    """The finding codes of docs/format.md, each with its default severity in ``SEVERITY``."""

    RECORD_JSON = "record.json"  #: not JSON, or not an object
    RECORD_SCHEMA = "record.schema"  #: a required field missing or of the wrong type
    RECORD_RULESET = "record.ruleset"  #: unknown preset, unknown option, bad value
    RECORD_PLAYERS = "record.players"  #: player count out of range, or a repeated name
    RECORD_CARD = "record.card"  #: a card code that cannot be read
    GAME_INCOMPLETE = "game.incomplete"  #: fewer deals than the schedule
    GAME_EXTRA_DEAL = "game.extra_deal"  #: more deals than the schedule
    DEAL_SCHEDULE = "deal.schedule"  #: cards or kind differ from the schedule
    DEAL_DEALER = "deal.dealer"  #: not the dealer the rotation gives
    DEAL_CARDS = "deal.cards"  #: a hand of the wrong size, or more cards than the deck
    DEAL_UNKNOWN_CARD = "deal.unknown_card"  #: a card not in this ruleset's deck
    DEAL_DUPLICATE_CARD = "deal.duplicate_card"  #: dealt more often than the deck holds it
    DEAL_TRUMP = "deal.trump"  #: trump inconsistent with the card, the kind or the ruleset
    DEAL_TRUMP_CARD = "deal.trump_card"  #: trump card missing or in the wrong place
    BID_MISSING = "bid.missing"  #: a bidding deal without a bid for every seat
    BID_UNEXPECTED = "bid.unexpected"  #: bids in a deal kind that has none
    BID_RANGE = "bid.range"  #: a bid below 0 or above cards
    BID_HOOK = "bid.hook"  #: the last bidder made the bids sum to cards
    BID_THREE_PASSES = "bid.three_passes"  #: a third pass in a row
    BID_DARK = "bid.dark"  #: a blind bid where not allowed, or a blind pass
    BID_AUCTION = "bid.auction"  #: calls or declarer inconsistent with the auction
    PLAY_COUNT = "play.count"  #: wrong number of tricks, or a trick of the wrong size
    PLAY_LEADER = "play.leader"  #: a stated leader who is not the one the rules give
    PLAY_NOT_HELD = "play.not_held"  #: a card the player does not hold
    PLAY_REVOKE = "play.revoke"  #: did not follow suit though able
    PLAY_MUST_TRUMP = "play.must_trump"  #: void, held a trump, played neither trump nor joker
    PLAY_JOKER = "play.joker"  #: a missing, unknown or disallowed joker declaration
    PLAY_JOKER_DEMAND = "play.joker_demand"  #: did not answer a joker's demand
    PLAY_HANDS = "play.hands"  #: a dealt hand differs from the cards that seat played
    CLAIM_BEATEN = "claim.beaten"  #: the others could have taken a trick the claim gives away
    CLAIM_UNCHECKED = "claim.unchecked"  #: a claim the replay could not check
    RESULT_TAKEN = "result.taken"  #: claimed tricks taken differ
    RESULT_SUM = "result.sum"  #: sheet audit: claimed taken does not sum to cards
    RESULT_SCORE = "result.score"  #: a claimed deal score differs
    RESULT_RUNNING = "result.running"  #: a claimed running total differs
    RESULT_TOTAL = "result.total"  #: a claimed final total differs
    IMPORT_SOURCE = "import.source"  #: a file to import that is not of the format named
    IMPORT_VALUE = "import.value"  #: a value of an imported file that cannot be read
    IMPORT_UNMAPPED = "import.unmapped"  #: what an imported file says that no record can

    @property
    def severity(self) -> Severity:
        return SEVERITY[self]


SEVERITY: dict[Code, Severity] = {code: Severity.ERROR for code in Code}
SEVERITY[Code.GAME_INCOMPLETE] = Severity.WARNING
SEVERITY[Code.CLAIM_UNCHECKED] = Severity.WARNING
for _code in (Code.RESULT_TAKEN, Code.RESULT_SCORE, Code.RESULT_RUNNING, Code.RESULT_TOTAL):
    SEVERITY[_code] = Severity.MISMATCH


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem, located as players count (1-based deal/trick/play, 0-based seat)."""

    code: Code
    message: str
    severity: Severity | None = None
    deal: int | None = None
    trick: int | None = None
    play: int | None = None
    seat: int | None = None
    player: str | None = None
    expected: Any = None
    actual: Any = None
    path: str | None = None

    @property
    def places(self) -> tuple[int | None, int | None, int | None]:
        """Its three places, outermost first: deal, trick, play."""
        return (self.deal, self.trick, self.play)

    @property
    def level(self) -> Severity:
        return self.severity or SEVERITY[self.code]

    def to_dict(self, *, null_path: bool = False) -> dict[str, Any]:
        """The finding in a report (``path`` left out when null) or, with ``null_path``, in
        the service's API, which always writes it."""
        return finding_json(
            str(self.code),
            str(self.level),
            self.message,
            deal=self.deal,
            trick=self.trick,
            play=self.play,
            seat=self.seat,
            player=self.player,
            expected=_json_value(self.expected),
            actual=_json_value(self.actual),
            path=self.path,
            null_path=null_path,
        )


def finding_json(
    code: str,
    severity: str,
    message: str,
    *,
    deal: int | None = None,
    trick: int | None = None,
    play: int | None = None,
    seat: int | None = None,
    player: str | None = None,
    expected: Any = None,
    actual: Any = None,
    path: str | None = None,
    null_path: bool = True,
) -> dict[str, Any]:
    """A finding as the JSON object of docs/format.md, its fields in the documented order.

    The one place that shape is written: a report's findings, the service's stored findings
    and its findings about a request all come from here. ``null_path=False`` leaves out a
    null ``path``, as reports do.
    """
    return located_json(
        code,
        severity,
        message,
        (("deal", deal), ("trick", trick), ("play", play)),
        seat=seat,
        player=player,
        expected=expected,
        actual=actual,
        path=path,
        null_path=null_path,
    )


def located_json(
    code: str,
    severity: str,
    message: str,
    where: tuple[tuple[str, int | None], ...],
    *,
    seat: int | None,
    player: str | None,
    expected: Any,
    actual: Any,
    path: str | None,
    null_path: bool,
) -> dict[str, Any]:
    """A finding of any game as JSON: ``where`` are the game's own places in their order
    (``deal``, ``trick``, ``play``; the rummy's ``deal``, ``turn``, ``action``; the poker's
    ``hand``, ``stage``, ``action``), between the severity and the seat, as every format
    writes them."""
    out: dict[str, Any] = {"code": code, "severity": severity}
    out.update(where)
    out.update(seat=seat, player=player, message=message, expected=expected, actual=actual)
    if null_path or path is not None:
        out["path"] = path
    return out


def _json_value(value: Any) -> Any:
    """``value`` as JSON can hold it: a NaN or an infinity handed to ``verify()`` in a decoded
    record is quoted by the name JSON readers give it ("NaN", "Infinity", "-Infinity")."""
    if type(value) is float and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if type(value) is list:
        return [_json_value(v) for v in value]
    if type(value) is dict:
        return {k: _json_value(v) for k, v in value.items()}
    return value


def pointer(*parts: str | int) -> str:
    """A JSON Pointer (RFC 6901) to a place in the record."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)
