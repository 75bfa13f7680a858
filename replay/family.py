"""What every game family tells the engine about itself, in one object.

A family package (``tricks``, ``rummy``, ``poker``) exports a ``GameFamily`` from its
``family`` module, as ``chess.variant`` describes a variant and OpenSpiel's ``register_game``
registers a game: its format, presets, the names of a finding's three places, its verifier,
its report's class and how its final totals rank the seats. ``formats`` keeps the registry of
them and finds a family by format, preset, name or report; nothing else lists the families.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Family(StrEnum):
    """The game families' names, as the service stores them."""

    TRICKS = "tricks"  #: Расписной покер and its kin, ``raspis/1``
    RUMMY = "rummy"  #: «Джокер», ``raspis-rummy/1``
    POKER = "poker"  #: the joker poker games, ``raspis-poker/1``


#: A family's verifier: a decoded record and the service's stored rulesets → its report.
Verifier = Callable[[Any, Mapping[str, Any] | None], Any]


def _always(preset: str) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class GameFamily:
    """One family of games as the engine and the service see it from outside."""

    name: Family
    format: str  #: the ``format`` its records name
    presets: Mapping[str, Any]  #: its presets by name; no name is two families'
    places: tuple[str, str, str]  #: the names of a finding's three places, in their order
    verify: Verifier  #: never raises on bad input
    report: type  #: the class of its reports
    lowest_wins: bool = False  #: whether the lowest total is best (the rummy, RUMMY §8)
    #: whether a seat must have gained to win (the poker: a seat that won nothing did not win)
    winner_gains: bool = False
    #: whether the seats of a game of a preset play one another, so that places rank them
    seats_compete: Callable[[str], bool] = _always

    def standings(self, totals: Sequence[Any]) -> tuple[list[int], set[int]]:
        """The places (1 is best; equal totals share one, as 1, 1, 3) and the winners of
        final totals, by this family's measure."""
        keys = [-t for t in totals] if self.lowest_wins else list(totals)
        places = [1 + sum(1 for other in keys if other > key) for key in keys]
        best = max(keys, default=0)
        winners = {
            seat
            for seat, key in enumerate(keys)
            if key == best and (not self.winner_gains or best > 0)
        }
        return places, winners
