"""Models for ratings and statistics; every row is derived from counted games and can be
rebuilt from them (``manage.py recompute_stats``), so nothing here is a source of truth.

- ``GameFact`` and ``SeatFact``: one row per counted game and per seat of it, holding what
  the game contributed (``stats.contributions``), so that it can be subtracted again.
- ``PlayerStat``: summed counters per player, per ruleset (``""``: all) and per period
  (``"YYYY-MM"``, or ``""``: all time). The counters every list needs are columns; the rest
  is a JSON object of counters. Rates and averages are derived from them; the all-time row
  also keeps its derived answer, rendered on write.
- ``HeadToHead``: summed results of two players at one table, per ruleset (``""``: all).
- ``Rating`` and ``RatingEntry``: the OpenSkill rating per player and ruleset, and its value
  after each game in played order.
- ``LeaderboardSnapshot``: the gated ranking of a ruleset as it stood on a day.
- ``PendingUpdate``: the games whose statistics a task has yet to update.

A game's ruleset key is the name of the club's stored ruleset when the record names one,
else its preset (a record's inline options count under their preset). Each aggregate row has
a ``version`` that grows with every change, for the API's ETags.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q

from games.models import Game, Player

ALL = ""  #: the ruleset key or period of rows that sum over all of them


class StatsLock(models.Model):
    """A single row that stats writers lock, so that updates to shared rows never interleave.

    ``recomputed_at`` is when statistics were last rebuilt from scratch.
    """

    recomputed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return "statistics lock"


class PendingUpdate(models.Model):
    """A game whose statistics are to be brought up to date (``stats_update_pending``).

    Changed games are queued here and one task takes every game queued when it runs: a
    burst of single-game changes costs one update, not one each (an update's queries cost
    about as much for one game as for a hundred). A plain integer, no foreign key, like the
    seat-deal rows: the queue is written on every store.
    """

    game_id = models.BigIntegerField(primary_key=True)

    def __str__(self) -> str:
        return f"game {self.game_id}"


class GameFact(models.Model):
    """A counted game: its ruleset key, when it was played, and its seats for the ratings."""

    game = models.OneToOneField(
        Game, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    ruleset = models.CharField(max_length=100)
    when = models.DateTimeField()  #: ``played_at``, or the upload time when the record has none
    month = models.CharField(max_length=7)
    seats = models.JSONField()  #: ``[[player_id, place], ...]`` in seat order
    #: Someone other than the uploader stands behind it (``games.selectors.games_vouched``):
    #: only such games are rated, and so reach a leaderboard (docs/trust.md).
    vouched = models.BooleanField(default=False)

    class Meta:
        indexes: ClassVar = [models.Index(fields=["ruleset", "when", "game"])]

    def __str__(self) -> str:
        return f"facts of game {self.game_id}"


class SeatFact(models.Model):
    """One seat's contribution to the statistics of its player."""

    game = models.ForeignKey(
        Game, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    seat = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    ruleset = models.CharField(max_length=100)
    month = models.CharField(max_length=7)
    total = models.DecimalField(max_digits=14, decimal_places=4)
    place = models.PositiveIntegerField()
    winner = models.BooleanField()
    counters = models.JSONField()

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "seat"], name="seatfact_unique_seat")
        ]
        indexes: ClassVar = [models.Index(fields=["player", "ruleset", "month"])]

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id}"


#: Counters kept as columns of ``PlayerStat`` (lists, trends and gates read them).
STAT_COLUMNS = ("games", "wins", "total", "deals", "points", "bids", "exact")


class PlayerStat(models.Model):
    """Summed counters of one player for one ruleset key and period (``ALL`` for all)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="stats")
    ruleset = models.CharField(max_length=100, blank=True)
    period = models.CharField(max_length=7, blank=True)
    games = models.BigIntegerField(default=0)
    wins = models.BigIntegerField(default=0)
    total = models.BigIntegerField(default=0)  #: in 1/10,000 points
    deals = models.BigIntegerField(default=0)
    points = models.BigIntegerField(default=0)  #: in 1/10,000 points
    bids = models.BigIntegerField(default=0)
    exact = models.BigIntegerField(default=0)
    best_total = models.DecimalField(max_digits=14, decimal_places=4, null=True)
    counters = models.JSONField(default=dict)
    #: All-time rows of players past the games gate: percentile per figure among them.
    percentiles = models.JSONField(default=dict)
    #: All-time rows: the API's answer without a range, as JSON text, rendered from the
    #: counters whenever the row changes (``selectors.stats_body``), so that the common read
    #: is one row; ranges are derived on read.
    body = models.TextField(blank=True)
    version = models.PositiveBigIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["player", "ruleset", "period"], name="playerstat_unique_key"
            )
        ]
        indexes: ClassVar = [models.Index(fields=["ruleset", "period", "games"])]

    def __str__(self) -> str:
        return f"{self.player_id} {self.ruleset or 'all'} {self.period or 'all time'}"


class HeadToHead(models.Model):
    """Two players' games at one table, ``player_a`` the lower id, per ruleset key."""

    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    ruleset = models.CharField(max_length=100, blank=True)
    games = models.BigIntegerField(default=0)
    a_ahead = models.BigIntegerField(default=0)
    b_ahead = models.BigIntegerField(default=0)
    ties = models.BigIntegerField(default=0)
    difference = models.BigIntegerField(default=0)  #: Σ (total_a − total_b), 1/10,000 points
    version = models.PositiveBigIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["player_a", "player_b", "ruleset"], name="headtohead_unique_key"
            ),
            models.CheckConstraint(
                condition=Q(player_a__lt=models.F("player_b")), name="headtohead_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_a_id} v {self.player_b_id} {self.ruleset or 'all'}"


class Rating(models.Model):
    """A player's OpenSkill rating (Plackett-Luce) in one ruleset after their latest game."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    ruleset = models.CharField(max_length=100)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()  #: μ − 3σ, what leaderboards rank by
    games = models.PositiveIntegerField()
    last_played = models.DateTimeField()
    version = models.PositiveBigIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["player", "ruleset"], name="rating_unique_key")
        ]
        indexes: ClassVar = [models.Index(fields=["ruleset", "-ordinal"])]

    def __str__(self) -> str:
        return f"{self.player_id} {self.ruleset}: {self.ordinal:.2f}"


class RatingEntry(models.Model):
    """A player's rating in a ruleset right after one game; ``games`` counts it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    ruleset = models.CharField(max_length=100)
    game = models.ForeignKey(
        Game, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    when = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "player"], name="ratingentry_unique")
        ]
        indexes: ClassVar = [
            models.Index(fields=["player", "ruleset", "when", "game"]),
            models.Index(fields=["ruleset", "when", "game"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after game {self.game_id}: {self.ordinal:.2f}"


class LeaderboardSnapshot(models.Model):
    """The gated leaderboard of a ruleset key as it stood on ``date`` (a daily task)."""

    ruleset = models.CharField(max_length=100)
    date = models.DateField()
    gates = models.JSONField()
    entries = models.JSONField()
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["ruleset", "date"], name="leaderboard_unique_day")
        ]

    def __str__(self) -> str:
        return f"{self.ruleset} leaderboard of {self.date}"
