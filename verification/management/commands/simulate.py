"""``manage.py simulate``: JSON Lines of simulated games, for tests, demos and benchmarks."""

from __future__ import annotations

import argparse
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from replay.cli import UsageError, add_simulate_arguments, run_simulate


class Command(BaseCommand):
    help = "Write random legal games (optionally with one injected defect) as JSON Lines."

    def add_arguments(self, parser: CommandParser) -> None:
        add_simulate_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        names = (
            "game",
            "ruleset",
            "players",
            "games",
            "hands",
            "seed",
            "corrupt",
            "sheet",
            "claims",
        )
        try:
            run_simulate(argparse.Namespace(**{k: options[k] for k in names}), self.stdout)
        except UsageError as exc:
            raise CommandError(str(exc), returncode=2) from exc
