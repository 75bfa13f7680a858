"""The rummy «Джокер» as the registry knows it (``replay.family``)."""

from __future__ import annotations

from ..family import Family, GameFamily
from .game import verify
from .parse import FORMAT
from .report import Report
from .rulesets import PRESETS

FAMILY = GameFamily(
    name=Family.RUMMY,
    format=FORMAT,
    presets=PRESETS,
    places=("deal", "turn", "action"),
    verify=verify,
    report=Report,
    lowest_wins=True,
)
