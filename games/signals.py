"""Signals other apps connect to, so that ``games`` needs to know nothing of them.

The statistics app recomputes what depends on the games named in ``game_ids``. Both are sent
once per change, inside the transaction that made it, with ``sender`` the module that changed
them and ``game_ids`` a list of primary keys. What a receiver writes to the database commits
or rolls back with the change: the statistics' queue of changed games can then never miss a
committed change, even when the process dies just after its commit. Work outside the
database, such as sending a task, belongs on ``transaction.on_commit``.

- ``game_verified``: the games have a new report: stored, replaced by a corrected record
  (same id, new version) or re-verified by ``manage.py reverify``.
- ``game_changed``: a reviewer changed them without a new report: a dispute was opened or
  decided (status, corrected totals) or two players were merged (seats point elsewhere).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.dispatch import Signal

game_verified = Signal()
game_changed = Signal()


def send_for_games(signal: Signal, *, sender: object, game_ids: Iterable[int]) -> None:
    """Send ``signal`` for ``game_ids``, in the transaction that changed them; none for none."""
    ids = sorted(set(game_ids))
    if ids:
        signal.send(sender=sender, game_ids=ids)
