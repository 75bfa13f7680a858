"""Models for verification reports, their findings, verdict changes and the seat-deal rows
derived from a report; the engine itself (``replay``) knows nothing of them.

A report belongs to one record version; re-verification with a newer engine adds a report
and makes it current, so the old one stays as evidence of what was said before.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from django.db import models
from django.db.models import Q

from games.models import Game, GameRecord
from replay import PLACES, Family
from replay.findings import located_json


class Stored(models.TextChoices):
    """What storing a record made of it (``services.store.records_store``)."""

    STORED = "stored"  #: a new game
    REPLACED = "replaced"  #: a new version of a game with the same external_id
    DUPLICATE = "duplicate"  #: the same record text is already stored
    REJECTED = "rejected"  #: malformed: see the outcome's findings
    FAILED = "failed"  #: the service failed on it; see the outcome's findings


class Report(models.Model):
    """The docs/format.md report of one record version, as JSON text, with the engine version.

    The JSON is kept as text rather than ``jsonb``: it is written once per game on the hot
    path of ingest and only ever read whole, and PostgreSQL's ``jsonb`` refuses a ``\\u0000``
    that a player's name may legally contain.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reports")
    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="reports")
    engine_version = models.CharField(max_length=20)
    verdict = models.CharField(max_length=10)
    audit = models.CharField(max_length=10)
    data = models.TextField()
    current = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar = ["id"]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(current=True), name="report_one_current"
            )
        ]

    def __str__(self) -> str:
        return f"report {self.pk} of game {self.game_id} ({self.verdict})"

    def as_dict(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.data)
        return value


class Finding(models.Model):
    """One finding of a report, with the fields of docs/format.md, queryable by code and place.

    A family's places are kept in the same three columns, in their order
    (``replay.PLACES``): one
    table answers "every finding of deal 2" for any game, and a finding is written back in
    its family's words by ``to_dict``.
    """

    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="finding_rows")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="findings")
    code = models.CharField(max_length=30)
    severity = models.CharField(max_length=10)
    deal = models.PositiveIntegerField(null=True)
    trick = models.PositiveIntegerField(null=True)
    play = models.PositiveIntegerField(null=True)
    seat = models.PositiveIntegerField(null=True)
    player = models.CharField(max_length=200, null=True)
    message = models.TextField()
    expected = models.JSONField(null=True)
    actual = models.JSONField(null=True)
    path = models.TextField(null=True)

    class Meta:
        ordering: ClassVar = ["id"]
        indexes: ClassVar = [models.Index(fields=["code"])]

    def __str__(self) -> str:
        return f"{self.code} in game {self.game_id}"

    def to_dict(self, family: str = Family.TRICKS) -> dict[str, Any]:
        """The shape of the family's reports, ``path`` included (null when it has none)."""
        names = PLACES[Family(family)]
        return located_json(
            self.code,
            self.severity,
            self.message,
            tuple(zip(names, (self.deal, self.trick, self.play), strict=True)),
            seat=self.seat,
            player=self.player,
            expected=self.expected,
            actual=self.actual,
            path=self.path,
            null_path=True,
        )


class VerdictChange(models.Model):
    """A game whose verdict changed: by re-verification with another engine, or a new version."""

    class Reason(models.TextChoices):
        REVERIFY = "reverify"
        REPLACED = "replaced"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="verdict_changes")
    old = models.CharField(max_length=10)
    new = models.CharField(max_length=10)
    old_engine = models.CharField(max_length=20)
    new_engine = models.CharField(max_length=20)
    reason = models.CharField(max_length=10, choices=Reason.choices)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar = ["-at", "-id"]

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.old} → {self.new}"


class SeatDeal(models.Model):
    """One seat in one deal of the current record, as recomputed, for statistics.

    The joker columns count the seat's joker plays in the deal by declaration
    (``joker_demand`` is lead_highest plus lead_lowest, ``joker_lead_highest`` the first of
    them) and the tricks they won; ``jokers_held`` the jokers it was dealt.
    """

    # No foreign key constraints in the database: a batch writes some 150 rows a game, and
    # checking two constraints for each of them was a large part of the batch. The rows are
    # derived, written only by ``services.store`` with ids it just read or created, and
    # Django still cascades deletes. Who sat at a seat is the game's ``GameSeat``'s to say.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seat_deals", db_constraint=False
    )
    seat = models.PositiveIntegerField()
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=10)
    cards = models.IntegerField()
    trump = models.IntegerField(null=True)  #: 0-3 for S C D H, -1 none, null rotating
    bid = models.IntegerField(null=True)  #: null in deals without bidding
    dark = models.BooleanField()
    taken = models.IntegerField()
    score = models.DecimalField(max_digits=14, decimal_places=4)
    running = models.DecimalField(max_digits=14, decimal_places=4)
    jokers = models.PositiveIntegerField()  #: joker plays, i.e. jokers held and played
    joker_high = models.PositiveIntegerField()
    joker_low = models.PositiveIntegerField()
    joker_plain = models.PositiveIntegerField()
    joker_demand = models.PositiveIntegerField()
    joker_wins = models.PositiveIntegerField()
    joker_lead_highest = models.PositiveIntegerField(default=0)
    #: Jokers dealt (``DealResult.jokers_held``); null when unknown: a sheet deal without hands.
    jokers_held = models.PositiveIntegerField(null=True)
    hook = models.BooleanField(default=False)  #: the last bidder under the hook (RULES §3)

    class Meta:
        ordering: ClassVar = ["game", "number", "seat"]

    def __str__(self) -> str:
        return f"game {self.game_id} deal {self.number} seat {self.seat}"


class RummySeatDeal(models.Model):
    """One seat in one deal of a rummy game's current record, as recomputed, for statistics.

    Rounds count turns as players do, one turn of each seat a round: the first player's
    first turn is round 1. ``out_round`` and the opening's are null in a deal audited from
    the sheet, whose turns are unknown.
    """

    # Derived rows written in bulk, like ``SeatDeal``: no constraint checked per row.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="rummy_seat_deals", db_constraint=False
    )
    seat = models.PositiveIntegerField()
    number = models.PositiveIntegerField()
    points = models.DecimalField(max_digits=14, decimal_places=4)
    running = models.DecimalField(max_digits=14, decimal_places=4)
    out = models.BooleanField()  #: this seat went out
    out_round = models.PositiveIntegerField(null=True)
    out_jokers = models.PositiveIntegerField(default=0)  #: jokers it went out on
    opened = models.BooleanField(default=False)
    opened_round = models.PositiveIntegerField(null=True)
    opening = models.PositiveIntegerField(null=True)  #: the worth of the opening melds
    full = models.BooleanField()  #: replayed turn by turn, not from the sheet

    class Meta:
        ordering: ClassVar = ["game", "number", "seat"]

    def __str__(self) -> str:
        return f"rummy game {self.game_id} deal {self.number} seat {self.seat}"


class PokerSeatHand(models.Model):
    """One seat dealt into one hand of a poker game's current record, for statistics."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="poker_seat_hands", db_constraint=False
    )
    seat = models.PositiveIntegerField()
    number = models.PositiveIntegerField()
    net = models.BigIntegerField()  #: the change of its stack in the hand
    won = models.BooleanField()  #: won a pot (club) or was paid (casino)
    showdown = models.BooleanField()  #: its cards were judged at the showdown
    category = models.CharField(max_length=20, blank=True)  #: its hand's, at the showdown
    folded = models.PositiveIntegerField(null=True)  #: the stage it folded at

    class Meta:
        ordering: ClassVar = ["game", "number", "seat"]

    def __str__(self) -> str:
        return f"poker game {self.game_id} hand {self.number} seat {self.seat}"
