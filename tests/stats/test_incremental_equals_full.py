"""The incremental path and the full recompute give exactly the same numbers.

Random small simulated games, trick-taking and rummy, are stored, replaced by new versions
(which moves them in played order, so ratings are replayed from an earlier game), disputed,
overturned, restored and corrected by reviewers, and players are merged; after every step
the statistics are updated the way the signals ask for it. At the end everything is rebuilt
from scratch and must match row for row, floats included.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from core.errors import Rejected
from games.models import Dispute, Game, Player
from games.services import dispute_open, dispute_resolve, player_merge
from replay.rummy.simulate import simulate_game as simulate_rummy
from replay.simulate import simulate_game
from stats import services, tasks
from stats.models import GameFact, HeadToHead, PlayerStat, Rating, RatingEntry, SeatFact
from verification.services.store import Entry, records_store

from .conftest import SHORT

NAMES = ("Anna", "Boris", "Vera", "Gleb", "Daria", "Egor")

add = st.tuples(
    st.just("add"),
    st.integers(0, 2**32),
    st.permutations(NAMES).map(lambda names: names[:4]),
    st.sampled_from([3, 3, 4]),
    st.sampled_from(["public", "public", "public", "private"]),
    st.sampled_from(["tricks", "tricks", "rummy"]),
)
review = st.tuples(
    st.sampled_from(["replace", "open", "uphold", "reject", "correct", "merge"]),
    st.integers(0, 50),
    st.integers(0, 2**32),
)
steps = st.lists(st.one_of(add, review), min_size=3, max_size=9)


def snapshot() -> dict[str, list[Any]]:
    return {
        "games": sorted(
            GameFact.objects.values_list("game_id", "ruleset", "when", "month", "seats")
        ),
        "seats": sorted(
            (
                f.game_id,
                f.seat,
                f.player_id,
                f.ruleset,
                f.month,
                f.total,
                f.place,
                f.winner,
                json.dumps(f.counters, sort_keys=True),
            )
            for f in SeatFact.objects.all()
        ),
        "stats": sorted(
            (
                r.player_id,
                r.ruleset,
                r.period,
                r.games,
                r.wins,
                r.total,
                r.deals,
                r.points,
                r.bids,
                r.exact,
                r.best_total,
                json.dumps(r.counters, sort_keys=True),
                json.dumps(r.percentiles, sort_keys=True),
                r.body,
            )
            for r in PlayerStat.objects.all()
        ),
        "pairs": sorted(
            HeadToHead.objects.values_list(
                "player_a_id",
                "player_b_id",
                "ruleset",
                "games",
                "a_ahead",
                "b_ahead",
                "ties",
                "difference",
            )
        ),
        "ratings": sorted(
            Rating.objects.values_list(
                "player_id", "ruleset", "mu", "sigma", "ordinal", "games", "last_played"
            )
        ),
        "history": sorted(
            RatingEntry.objects.values_list(
                "player_id", "ruleset", "game_id", "when", "mu", "sigma", "ordinal", "games"
            )
        ),
    }


class Table:
    """Runs the steps through the services, with the signals' on-commit callbacks run."""

    def __init__(self, capture: Any) -> None:
        self.capture = capture
        self.uploader = User.objects.create_user("uploader")
        self.staff = User.objects.create_user("staff", is_staff=True)
        #: (game id, external id, players, family)
        self.games: list[tuple[int, str, int, str]] = []

    def run(self, step: tuple[Any, ...]) -> None:
        with self.capture(execute=True):
            getattr(self, step[0])(*step[1:])

    def _store(
        self, seed: int, names: list[str], visibility: str, external_id: str, family: str
    ) -> int:
        if family == "rummy":
            value = simulate_rummy("joker_rummy", len(names), seed % 1000)
            value["players"] = names
        else:
            value = simulate_game(SHORT, len(names), seed, names=names)
        value.setdefault("meta", {})["external_id"] = external_id
        outcome = records_store(
            entries=[Entry(json.dumps(value), value)],
            uploaded_by=self.uploader,
            visibility=visibility,
        )[0]
        assert outcome.game_id is not None
        return outcome.game_id

    def add(
        self, seed: int, names: tuple[str, ...], players: int, visibility: str, family: str
    ) -> None:
        external_id = f"g{len(self.games)}"
        game_id = self._store(seed, list(names[:players]), visibility, external_id, family)
        self.games.append((game_id, external_id, players, family))

    def _pick(self, index: int) -> tuple[int, str, int, str] | None:
        return self.games[index % len(self.games)] if self.games else None

    def replace(self, index: int, seed: int) -> None:
        picked = self._pick(index)
        if picked is None:
            return
        game_id, external_id, _, family = picked
        game = Game.objects.get(pk=game_id)
        names = list(game.seats.order_by("seat").values_list("name", flat=True))
        assert self._store(seed, names, game.visibility, external_id, family) == game_id

    def open(self, index: int, seed: int) -> None:
        picked = self._pick(index)
        if picked is not None:
            dispute_open(game=Game.objects.get(pk=picked[0]), by=self.staff, reason="check")

    def _decide(self, index: int, decision: str, scores: list[int] | None = None) -> None:
        picked = self._pick(index)
        if picked is None:
            return
        game = Game.objects.get(pk=picked[0])
        dispute = Dispute.objects.filter(game=game, status="open").first()
        if dispute is None:
            dispute = dispute_open(game=game, by=self.staff, reason="check")
        dispute_resolve(
            dispute=dispute, decision=decision, note="", corrected_scores=scores, by=self.staff
        )

    def uphold(self, index: int, seed: int) -> None:
        self._decide(index, "upheld")

    def reject(self, index: int, seed: int) -> None:
        self._decide(index, "rejected")

    def correct(self, index: int, seed: int) -> None:
        picked = self._pick(index)
        if picked is not None:
            scores = [(seed >> (4 * i)) % 7 * 5 for i in range(picked[2])]
            self._decide(index, "corrected", scores)

    def merge(self, index: int, seed: int) -> None:
        players = list(Player.objects.filter(merged_into=None).order_by("pk"))
        if len(players) < 2:
            return
        source = players[index % len(players)]
        target = players[seed % len(players)]
        try:
            with transaction.atomic():
                player_merge(source=source, target=target, by=self.staff)
        except Rejected:
            pass


@pytest.mark.django_db
@hypothesis_settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=steps)
def test_incremental_updates_equal_a_full_recompute(
    steps: list[tuple[Any, ...]],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    settings.RASPIS_LEADERBOARD_MIN_GAMES = 1  # so that percentiles are compared too
    # What the worker would do with the task the signals queue.
    monkeypatch.setattr(tasks.stats_update_pending, "delay", services.stats_update_pending)
    with transaction.atomic():
        table = Table(django_capture_on_commit_callbacks)
        for step in steps:
            table.run(step)
        services.percentiles_update()  # the periodic job; the recompute runs it too
        incremental = snapshot()
        services.stats_recompute()
        assert snapshot() == incremental
        transaction.set_rollback(True)
