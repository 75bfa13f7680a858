"""The record's claimed values (``taken``, ``scores``, ``running``, ``totals``) against the
replay (RULES §10.11; FORMAT ``result.*``).

A claimed value that differs is found per seat; the replay goes on with what it computed, so
one wrong score does not make every later running total a finding of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..findings import Code, pointer
from ..scores import exact, plain

if TYPE_CHECKING:
    from .game import Game


def compare(
    game: Game,
    claimed: list[Any] | None,
    computed: list[Any],
    code: Code,
    number: int | None,
    what: str,
    key: str,
    index: int | None,
) -> None:
    """One ``result.*`` finding per seat whose claim differs from the replay."""
    if claimed is None or claimed == computed:
        return
    for seat, (claim, value) in enumerate(zip(claimed, computed, strict=True)):
        if claim != value and exact(claim) != value:
            where = ("deals", index, key, seat) if index is not None else (key, seat)
            game.find(
                code,
                f"the {what} is {plain(value)}, not {claim}",
                number,
                seat=seat,
                expected=plain(value),
                actual=claim,
                path=pointer(*where),
            )
