"""``manage.py reverify [--all | --since DATE]``: replay stored games with the current engine.

Without an option it re-verifies the games whose current report another engine version made,
which is what a deployment of a new engine wants. Verdict changes are stored
(``VerdictChange``) and printed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from replay import ENGINE_VERSION
from verification.models import VerdictChange
from verification.services.reverify import games_reverify, games_to_reverify


def _moment(text: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--since {text!r} is not an ISO 8601 date") from None
    return timezone.make_aware(when) if timezone.is_naive(when) else when


class Command(BaseCommand):
    help = "Re-verify stored games with the current engine and record verdict changes."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--all", action="store_true", help="every stored game")
        which.add_argument("--since", metavar="DATE", help="games stored on or after DATE")

    def handle(self, *args: Any, **options: Any) -> None:
        since = _moment(options["since"]) if options["since"] else None
        ids = games_to_reverify(everything=options["all"], since=since)
        first_change = VerdictChange.objects.order_by("-pk").values_list("pk", flat=True).first()
        summary = games_reverify(game_ids=ids)
        changes = VerdictChange.objects.filter(pk__gt=first_change or 0).order_by("pk")
        for change in changes:
            self.stdout.write(f"game {change.game_id}: {change.old} -> {change.new}")
        self.stdout.write(
            f"re-verified {summary.games} games with engine {ENGINE_VERSION}: "
            f"{summary.changes} verdicts changed"
        )
