"""Seeks (a player's "a game like this, now") and rematches of finished games.

A waiting seek is unique per user and pace (a partial unique constraint), so two requests
at once cannot both leave one waiting. A seek ends once: ``matched`` (with its ``game``),
``cancelled`` or ``expired``; the pairing locks the waiting seeks it reads
(``SELECT … FOR UPDATE SKIP LOCKED``), so no two workers hand one seek to two games.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SeekStatus(models.TextChoices):
    WAITING = "waiting", "Waiting for players"
    MATCHED = "matched", "Seated in a game"
    CANCELLED = "cancelled", "Cancelled by its player"
    EXPIRED = "expired", "Expired unmatched"


class Seek(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks"
    )
    board = models.CharField(max_length=32)
    players_min = models.PositiveSmallIntegerField()
    players_max = models.PositiveSmallIntegerField()
    # Seconds per move: one of ``matchmaking.rules.PACES``.
    turn_time_limit = models.PositiveIntegerField()
    rated = models.BooleanField(default=True)
    # ± rating points around the seeker's rating (null: anyone); widens with the wait.
    rating_window = models.PositiveIntegerField(null=True, blank=True)
    # Seconds of waiting after which AI seats may fill the table (null: never).
    ai_fill_after = models.PositiveIntegerField(null=True, blank=True)
    # The seeker's rating on the board when the seek was made (the default if unrated).
    rating = models.FloatField()
    status = models.CharField(max_length=16, choices=SeekStatus.choices, default=SeekStatus.WAITING)
    game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="seeks"
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "turn_time_limit"],
                condition=models.Q(status="waiting"),
                name="seek_one_waiting_per_pace",
            ),
        ]
        indexes = [
            models.Index(
                fields=["created_at"],
                condition=models.Q(status="waiting"),
                name="seek_waiting_oldest_first",
            ),
            models.Index(fields=["user", "-created_at"], name="seek_user_latest"),
        ]

    def __str__(self) -> str:
        return f"Seek {self.pk} of user {self.user_id} ({self.status})"


class RematchStatus(models.TextChoices):
    OPEN = "open", "Asked for; waiting for the other players"
    MADE = "made", "Every player agreed; the new game is made"
    DECLINED = "declined", "A player declined"


class Rematch(models.Model):
    """The rematch of one finished game: who agreed, and the new game once all did."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rematch")
    status = models.CharField(
        max_length=16, choices=RematchStatus.choices, default=RematchStatus.OPEN
    )
    # The user ids of the game's players who agreed, in the order they did.
    agreed = models.JSONField(default=list)
    declined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    new_game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Rematch of game {self.game_id} ({self.status})"
