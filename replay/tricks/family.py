"""The trick-taking family as the registry knows it (``replay.family``)."""

from __future__ import annotations

from ..family import Family, GameFamily
from .game import verify
from .report import Report
from .rulesets import PRESETS

FAMILY = GameFamily(
    name=Family.TRICKS,
    format="raspis/1",
    presets=PRESETS,
    places=("deal", "trick", "play"),
    verify=verify,
    report=Report,
)
