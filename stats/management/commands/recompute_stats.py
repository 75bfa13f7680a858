"""``manage.py recompute_stats``: rebuild every statistic and rating from the games."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from stats.services import stats_recompute


class Command(BaseCommand):
    help = "Rebuild statistics, head-to-head rows, ratings and percentiles from scratch."

    def handle(self, *args: Any, **options: Any) -> None:
        start = time.perf_counter()
        summary = stats_recompute()
        self.stdout.write(
            f"{summary.games} games, {summary.seats} seats, {summary.ratings} rated "
            f"in {time.perf_counter() - start:.1f} s"
        )
