"""Statistics and ratings per (user, board), and the record of which games were counted.

``RatedGame`` is the claim: one row per finished game, inserted in the same transaction as
the statistics and ratings it caused, so a game is counted exactly once however often the
task runs.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

INITIAL_RATING = 1500.0


class RatedGame(models.Model):
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rated_game")
    board = models.CharField(max_length=32)
    # False when the game counted for statistics only (it had an AI seat, or was casual).
    rated = models.BooleanField()
    recorded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Game {self.game_id} ({'rated' if self.rated else 'statistics only'})"


class PlayerStats(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_stats"
    )
    board = models.CharField(max_length=32)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)  # place 1, shared or not
    total_score = models.IntegerField(default=0)  # scores can be negative
    tickets_completed = models.PositiveIntegerField(default=0)
    tickets_failed = models.PositiveIntegerField(default=0)
    longest_path_bonuses = models.PositiveIntegerField(default=0)
    forfeits = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "board"], name="player_stats_unique_board"),
        ]

    def __str__(self) -> str:
        return f"Statistics of {self.user} on {self.board}"

    @property
    def average_score(self) -> float | None:
        return round(self.total_score / self.games, 2) if self.games else None


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    board = models.CharField(max_length=32)
    # Kept to two decimals, so equal ratings compare equal and share a leaderboard rank.
    rating = models.FloatField(default=INITIAL_RATING)
    rated_games = models.PositiveIntegerField(default=0)
    rated_wins = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "board"], name="rating_unique_board"),
        ]
        indexes = [
            models.Index(fields=["board", "-rating", "-rated_games"], name="rating_leaderboard"),
        ]

    def __str__(self) -> str:
        return f"{self.user} on {self.board}: {self.rating}"


class RatingChange(models.Model):
    """How one rated game moved one player's rating."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    board = models.CharField(max_length=32)
    place = models.PositiveSmallIntegerField()
    opponents = models.PositiveSmallIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_unique_player"),
        ]
        indexes = [models.Index(fields=["user", "board", "-created_at"], name="rating_history")]

    def __str__(self) -> str:
        return f"{self.user} in game {self.game_id}: {self.before} -> {self.after}"

    @property
    def change(self) -> float:
        return round(self.after - self.before, 2)
