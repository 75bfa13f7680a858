"""Models for game records, players, uploads and disputes; the records are kept exactly as
uploaded so any report can be reproduced by replaying them again.

Everything but ``GameRecord.text`` (and ``UploadPart.data``) is derived from the record and its
report and can be rebuilt by ``manage.py reverify``: the columns exist so that lists,
filters and statistics need no JSON.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q


def player_key(name: str) -> str:
    """The identity of a player name: compared without case and surrounding spaces."""
    return name.strip().casefold()[:200]


class Visibility(models.TextChoices):
    PUBLIC = "public"
    PRIVATE = "private"  #: only the uploader and staff see it


class Player(models.Model):
    """A person at the table, known by the name of their first game (``key`` is unique).

    A reviewer may merge two names of one person (``games.services.player_merge``): the
    source then points at its target with ``merged_into`` and its name becomes an alias.
    """

    name = models.CharField(max_length=200)
    key = models.CharField(max_length=200, unique=True)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar = ["name"]

    def __str__(self) -> str:
        return self.name


class PlayerAlias(models.Model):
    """Another name of a player: future records with it resolve to ``player``."""

    key = models.CharField(max_length=200, unique=True)
    name = models.CharField(max_length=200)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="aliases")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "player aliases"

    def __str__(self) -> str:
        return f"{self.name} → {self.player_id}"


class StoredRuleset(models.Model):
    """A club's named ruleset: records may name it in ``ruleset`` as if it were a preset."""

    name = models.CharField(max_length=100, unique=True)
    preset = models.CharField(max_length=50)
    options = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar = ["name"]

    def __str__(self) -> str:
        return self.name


class Verdict(models.TextChoices):
    """The engine's verdicts (FORMAT.md), worst first.

    A malformed record is refused, never stored; ``malformed`` appears only when a later
    re-verification cannot replay a stored record (a stored ruleset it names was changed).
    """

    MALFORMED = "malformed"
    ILLEGAL = "illegal"
    MISMATCH = "mismatch"
    VERIFIED = "verified"


class GameStatus(models.TextChoices):
    """Where a game stands in review; statistics count ``verified`` and ``resolved`` games."""

    VERIFIED = "verified"  #: the replay found nothing wrong
    FLAGGED = "flagged"  #: illegal or mismatch, waiting for a reviewer
    DISPUTED = "disputed"  #: someone opened a dispute that is not decided yet
    RESOLVED = "resolved"  #: a reviewer decided, correcting the result where needed


class Game(models.Model):
    """One game; its id stays when a corrected record replaces the current one."""

    ruleset_preset = models.CharField(max_length=50)
    ruleset_name = models.CharField(max_length=100, blank=True)  #: a stored ruleset's name
    played_at = models.DateTimeField(null=True, blank=True)
    source = models.CharField(max_length=200, blank=True)
    external_id = models.CharField(max_length=200, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    upload = models.ForeignKey(
        "Upload", null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    audit = models.CharField(max_length=10)
    status = models.CharField(max_length=10, choices=GameStatus.choices)
    players_count = models.PositiveIntegerField()
    deals_count = models.PositiveIntegerField()
    #: The current record's ``meta.point_value`` when it is a positive number, as a decimal
    #: numeral (``rows.point_value``): text, since a record may give it to any precision and
    #: the settlement (``stats.contributions``) uses it exactly.
    point_value = models.TextField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering: ClassVar = ["-created_at", "-id"]
        constraints: ClassVar = [
            # "A corrected record with the same external_id replaces the earlier version":
            # so there is at most one game per uploader and external id.
            models.UniqueConstraint(
                fields=["uploaded_by", "external_id"],
                condition=~Q(external_id=""),
                name="game_unique_external_id_per_uploader",
            )
        ]
        indexes: ClassVar = [
            models.Index(fields=["played_at"]),
            models.Index(fields=["status"]),
            models.Index(fields=["verdict"]),
        ]

    def __str__(self) -> str:
        return f"game {self.pk}"


class GameToReview(Game):
    """A game waiting for a reviewer: the admin's review queue (``game_review_queue``)."""

    class Meta:
        proxy = True
        verbose_name = "game to review"
        verbose_name_plural = "review queue"


class GameRecord(models.Model):
    """One version of a game's record, stored exactly as received and never modified."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="records")
    text = models.TextField()
    sha256 = models.CharField(max_length=64, unique=True)
    current = models.BooleanField(default=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    upload = models.ForeignKey(
        "Upload", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar = ["id"]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(current=True), name="gamerecord_one_current"
            )
        ]

    def __str__(self) -> str:
        return f"record {self.sha256[:12]} of game {self.game_id}"


class GameSeat(models.Model):
    """A seat of the current record: who sat there and how the replay ended for them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    name = models.CharField(max_length=200)  #: as written in the record
    total = models.DecimalField(max_digits=14, decimal_places=4)
    place = models.PositiveIntegerField()  #: 1 is best; equal totals share a place
    winner = models.BooleanField()

    class Meta:
        ordering: ClassVar = ["game", "seat"]
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "seat"], name="gameseat_unique_seat")
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat} of game {self.game_id})"


class SeatDeal(models.Model):
    """One seat in one deal of the current record, as recomputed, for statistics.

    The joker columns count the seat's joker plays in the deal by declaration
    (``joker_demand`` is lead_highest plus lead_lowest, ``joker_lead_highest`` the first of
    them) and the tricks they won; ``jokers_held`` the jokers it was dealt.
    """

    # No foreign key constraints in the database: a batch of a hundred games writes some
    # 15,000 rows, and checking 30,000 deferred constraints at commit took a third of the
    # batch. The rows are derived, written only by ``replay.services`` with ids it just read
    # or created, and Django still cascades deletes and protects players.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seat_deals", db_constraint=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seat_deals", db_constraint=False
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


class UploadStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class Upload(models.Model):
    """A file of records, stored before any work starts so that a dead worker loses nothing.

    The file itself is in ``UploadPart`` rows. The counts are refreshed after every batch,
    so a client polling the upload sees progress.
    """

    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="uploads"
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    filename = models.CharField(max_length=255, blank=True)
    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    status = models.CharField(
        max_length=10, choices=UploadStatus.choices, default=UploadStatus.QUEUED
    )
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)  #: items processed, whatever the outcome
    failed = models.PositiveIntegerField(default=0)  #: items rejected (malformed) or failed
    duplicates = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering: ClassVar = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"upload {self.pk} ({self.filename})"


class UploadPart(models.Model):
    """A piece of an upload's file (a mebibyte): the file is their ``data`` by ``offset``.

    PostgreSQL stores a 40 MB value four times slower than forty values of one MB, and reads
    a batch's few lines from a piece without touching the rest of the file.
    """

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="parts")
    offset = models.PositiveBigIntegerField()
    data = models.BinaryField()

    class Meta:
        ordering: ClassVar = ["upload", "offset"]
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["upload", "offset"], name="uploadpart_unique_offset")
        ]

    def __str__(self) -> str:
        return f"bytes from {self.offset} of upload {self.upload_id}"


class ItemOutcome(models.TextChoices):
    PENDING = "pending"
    STORED = "stored"  #: a new game
    REPLACED = "replaced"  #: a new version of a game with the same external_id
    DUPLICATE = "duplicate"  #: the same record text is already stored
    REJECTED = "rejected"  #: malformed: see ``findings``
    FAILED = "failed"  #: the service failed on it; see ``findings``


class UploadItem(models.Model):
    """One record of an upload, processed in a batch; done items are skipped on a re-run."""

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="items")
    index = models.PositiveIntegerField()
    batch = models.PositiveIntegerField()
    label = models.CharField(max_length=300)
    #: A line of a JSON Lines file is bytes ``start:end`` of the file, read when it is verified
    #: rather than copied here; other records (zip members, array items) keep their text.
    text = models.TextField(blank=True)
    start = models.PositiveBigIntegerField(null=True, blank=True)
    end = models.PositiveBigIntegerField(null=True, blank=True)
    outcome = models.CharField(
        max_length=10, choices=ItemOutcome.choices, default=ItemOutcome.PENDING
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    findings = models.JSONField(default=list, blank=True)

    class Meta:
        ordering: ClassVar = ["upload", "index"]
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["upload", "index"], name="uploaditem_unique_index")
        ]
        indexes: ClassVar = [models.Index(fields=["upload", "batch"])]

    def __str__(self) -> str:
        return f"{self.label} of upload {self.upload_id}"


class DisputeStatus(models.TextChoices):
    OPEN = "open"
    UPHELD = "upheld"  #: the record is wrong as the dispute says; the game stays flagged
    REJECTED = "rejected"  #: the record stands
    CORRECTED = "corrected"  #: the reviewer corrected the final totals


class Dispute(models.Model):
    """A player's objection to a game, decided by staff (``dispute_resolve``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="disputes")
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="disputes"
    )
    reason = models.TextField()
    deal = models.PositiveIntegerField(null=True, blank=True)
    trick = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=10, choices=DisputeStatus.choices, default=DisputeStatus.OPEN
    )
    note = models.TextField(blank=True)
    corrected_scores = models.JSONField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"dispute {self.pk} on game {self.game_id}"
