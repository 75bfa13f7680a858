"""One deal as its phases replay it (RULES §2–§7): the values every phase reads or adds to.

``game.Game.play_deal`` makes a ``DealContext`` and hands it to each phase in turn (hands,
trump, bidding, tricks); what they find about the deal goes through ``find``, located at the
deal, and each fills in its part of the deal's ``DealResult``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import play_name
from ..findings import Code, Severity, pointer
from ..scores import Number
from .parse import NO_TRUMP, Deal
from .report import DealResult

if TYPE_CHECKING:
    from .game import Game


@dataclass(slots=True)
class DealContext:
    game: Game
    deal: Deal
    number: int  #: 1-based, as findings locate it
    dealer: int
    fines: list[Number]  #: per seat, under ``revoke_penalty`` (RULES §10.9)
    #: The deal as recomputed, filled in phase by phase: its bids, blind bids and last
    #: bidder (``bidding``), trick winners and joker plays (``play``), taken, scores and
    #: running totals; it goes into the report as it is.
    result: DealResult
    trump: int = NO_TRUMP  #: the deal's trump suit for the play, -1 for none
    #: Per seat, the plays missing from the deal's short tricks (``play._check_trick``);
    #: None while no trick is short, the common deal.
    missed: list[int] | None = None

    def find(
        self,
        code: Code,
        message: str,
        *,
        trick: int | None = None,
        play: int | None = None,
        seat: int | None = None,
        expected: Any = None,
        actual: Any = None,
        path: str | None = None,
        severity: Severity | None = None,
    ) -> None:
        self.game.find(
            code,
            message,
            self.number,
            trick=trick,
            play=play,
            seat=seat,
            expected=expected,
            actual=actual,
            path=path,
            severity=severity,
        )

    def play_finding(
        self,
        code: Code,
        message: str,
        t: int,
        k: int,
        seat: int,
        play: int,
        severity: Severity | None = None,
    ) -> None:
        """A finding about play ``k`` (0-based) of trick ``t``, by ``seat``."""
        deal = self.deal
        where: tuple[str | int, ...] = ("deals", deal.index, "tricks", t)
        if deal.leaders is not None and deal.leaders[t] is not None:  # a trick object
            where += ("plays",)
        self.find(
            code,
            f"{message} ({play_name(play)})",
            trick=t + 1,
            play=k + 1,
            seat=seat,
            actual=play_name(play),
            path=pointer(*where, k),
            severity=severity,
        )


def count(number: int, noun: str) -> str:
    """``1 card``, ``2 cards``: messages are sentences a player reads."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def suit_name(suit: int) -> str:
    return "no trump" if suit < 0 else ("spades", "clubs", "diamonds", "hearts")[suit]


def suit_code(suit: int) -> str | None:
    return None if suit < 0 else "SCDH"[suit]
