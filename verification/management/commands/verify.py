"""``manage.py verify [--json] PATH...``: the engine's ``verify`` inside the project, which
also knows the rulesets stored in the service (a record may name one as its ``ruleset``)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.selectors import stored_rulesets
from replay.cli import UsageError, add_verify_arguments, run_verify


class Command(BaseCommand):
    help = "Verify raspis/1 records (.json, .jsonl, .zip or - for stdin) and print the reports."

    def add_arguments(self, parser: CommandParser) -> None:
        add_verify_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            status = run_verify(
                options["paths"],
                options["json"],
                self.stdout,
                stored_rulesets=stored_rulesets(),
                problems=options["problems"],
            )
        except UsageError as exc:
            raise CommandError(str(exc), returncode=2) from exc
        if status:
            sys.exit(status)
