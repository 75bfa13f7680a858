"""Signals other apps connect to, so that ``games`` needs to know nothing of them.

The statistics app recomputes what depends on the games named in ``game_ids``. Both are sent
once per transaction that changed the games, after it commits (never for a rolled-back one),
with ``sender`` the module that changed them and ``game_ids`` a list of primary keys.

- ``game_verified``: the games have a new report: stored, replaced by a corrected record
  (same id, new version) or re-verified by ``manage.py reverify``.
- ``game_changed``: a reviewer changed them without a new report: a dispute was opened or
  decided (status, corrected totals) or two players were merged (seats point elsewhere).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.dispatch import Signal

game_verified = Signal()
game_changed = Signal()


def send_on_commit(signal: Signal, *, sender: object, game_ids: Iterable[int]) -> None:
    """Send ``signal`` for ``game_ids`` once the current transaction commits."""
    ids = sorted(set(game_ids))
    if ids:
        transaction.on_commit(lambda: signal.send(sender=sender, game_ids=ids))
