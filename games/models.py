"""Models for games, their records, players, stored rulesets and disputes; the records are
kept exactly as uploaded so any report can be reproduced by replaying them again.

Everything but ``GameRecord.text`` is derived from the record and its report and can be
rebuilt by ``manage.py reverify``: the columns exist so that lists, filters and statistics
need no JSON.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from replay import Family, Verdict


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


#: The engine's verdicts, worst first, as a column's choices. A malformed record is refused,
#: never stored; ``malformed`` appears only when a later re-verification cannot replay a
#: stored record (a stored ruleset it names was changed).
VERDICTS = [(verdict.value, verdict.value) for verdict in Verdict]
#: The game families (``replay.Family``), as a column's choices.
FAMILIES = [(family.value, family.value) for family in Family]


class GameStatus(models.TextChoices):
    """Where a game stands in review; statistics count ``verified`` and ``resolved`` games."""

    VERIFIED = "verified"  #: the replay found nothing wrong
    FLAGGED = "flagged"  #: illegal or mismatch, waiting for a reviewer
    DISPUTED = "disputed"  #: someone opened a dispute that is not decided yet
    RESOLVED = "resolved"  #: a reviewer decided, correcting the result where needed


class Game(models.Model):
    """One game; its id stays when a corrected record replaces the current one.

    ``family`` says whose rules it is played by, and so which rows hold its details:
    seat-deals for the trick-taking family, rummy seat-deals, poker seat-hands. A rummy
    game's deals and a poker game's hands are both counted by ``deals_count``."""

    family = models.CharField(max_length=10, choices=FAMILIES, default=Family.TRICKS)
    ruleset_preset = models.CharField(max_length=50)
    ruleset_name = models.CharField(max_length=100, blank=True)  #: a stored ruleset's name
    played_at = models.DateTimeField(null=True, blank=True)
    source = models.CharField(max_length=200, blank=True)
    external_id = models.CharField(max_length=200, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    verdict = models.CharField(max_length=10, choices=VERDICTS)
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
            models.Index(fields=["family"]),
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
    """One version of a game's record, stored exactly as received and never modified.

    A text is stored once per uploader: another account's copy is matched only when that
    account may see its game (``verification.services.store``), so a private game is never told of
    by uploading its record; the same text can then be held by several uploaders' games.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="records")
    text = models.TextField()
    sha256 = models.CharField(max_length=64, db_index=True)
    current = models.BooleanField(default=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar = ["id"]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(current=True), name="gamerecord_one_current"
            ),
            models.UniqueConstraint(
                fields=["sha256", "uploaded_by"], name="gamerecord_unique_text_per_uploader"
            ),
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


class Club(models.Model):
    """A club whose organisers upload its games. Once staff trust it (``trusted_by``), the
    games its organisers upload count for ratings: staff stand behind the organisers, and
    the organisers behind their games (docs/trust.md)."""

    name = models.CharField(max_length=200, unique=True)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="clubs", blank=True)
    trusted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    trusted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar = ["name"]

    def __str__(self) -> str:
        return self.name


class PlayerLink(models.Model):
    """An account's claim to be a player, approved by staff or a trusted club's organiser:
    only an approved link lets the account confirm the games that player sat in."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_link"
    )
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="link")
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id} is {self.player_id}"


class GameConfirmation(models.Model):
    """A player at the table, other than the uploader, standing behind a game's record."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="confirmations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "user"], name="gameconfirmation_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} confirms game {self.game_id}"
