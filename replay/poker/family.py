"""The joker poker games as the registry knows them (``replay.family``)."""

from __future__ import annotations

from ..family import Family, GameFamily
from .game import verify
from .parse import FORMAT
from .report import PokerReport
from .rulesets import PRESETS, Game


def seats_compete(preset: str) -> bool:
    """In every game but the casino's, where each seat plays the house alone."""
    return PRESETS[preset][0] is not Game.CASINO


FAMILY = GameFamily(
    name=Family.POKER,
    format=FORMAT,
    presets=PRESETS,
    places=("hand", "stage", "action"),
    verify=verify,
    report=PokerReport,
    winner_gains=True,
    seats_compete=seats_compete,
)
