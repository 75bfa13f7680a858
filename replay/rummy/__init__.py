"""«Джокер», the rummy of the ``raspis-rummy/1`` records (docs/rummy.md): cards, melds, the
replay of every turn and the report."""

from .game import verify

__all__ = ["verify"]
