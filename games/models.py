"""Games, their seats, the move log, and idempotency records.

The engine state of a running game is stored whole in ``Game.state`` (JSON); the move log
(``Move``) holds every action with the events it caused, so seed + log rebuild the state.
``Game.version`` goes up by one with every change a client can observe; writes compare it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class GameStatus(models.TextChoices):
    LOBBY = "lobby", "Waiting for players"
    ACTIVE = "active", "Being played"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


class TimeoutPolicy(models.TextChoices):
    AI_PLAYS_TURN = "ai_plays_turn", "The AI plays the missed turn"
    AI_TAKES_SEAT = "ai_takes_seat", "The AI takes the seat after repeated misses"
    FORFEIT = "forfeit", "The player forfeits"


class SeatKind(models.TextChoices):
    OPEN = "open", "Open to anyone"
    INVITED = "invited", "Reserved for an invited user"
    HUMAN = "human", "Taken by a user"
    AI = "ai", "Played by the AI"


class Game(models.Model):
    board = models.CharField(max_length=32)
    # The board's game options, every one spelled out (defaults included); {} for none.
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=GameStatus.choices, default=GameStatus.LOBBY)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    players = models.PositiveSmallIntegerField()
    # Seconds allowed per move; null = no limit.
    turn_time_limit = models.PositiveIntegerField(null=True, blank=True)
    timeout_policy = models.CharField(
        max_length=16, choices=TimeoutPolicy.choices, default=TimeoutPolicy.AI_PLAYS_TURN
    )
    # With ai_takes_seat: consecutive missed turns before the AI takes the seat.
    timeout_takeover_after = models.PositiveSmallIntegerField(default=2)
    first_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Secret until the game is over: it decides every shuffle.
    seed = models.BigIntegerField()
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    # False: a casual game, which counts for statistics only, never for ratings.
    rated = models.BooleanField(default=True)

    # The seats with their users, on a game read with them (``games.queries.sql``, or
    # ``Prefetch("seats", ..., to_attr="seated")``); not a column. Reading it on a game read
    # without them raises AttributeError.
    seated: list[Seat]

    class Meta:
        indexes = [
            models.Index(fields=["status", "-updated_at"]),
            models.Index(fields=["deadline"]),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.board}, {self.status})"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=SeatKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    ai_level = models.CharField(max_length=16, blank=True, default="")
    joined_at = models.DateTimeField(null=True, blank=True)
    # Whether a decision of this seat is pending: "my turn first" in game lists.
    pending = models.BooleanField(default=False)
    # Deadlines missed in a row, and whether the AI now plays for the seat's user.
    missed_turns = models.PositiveSmallIntegerField(default=0)
    ai_controlled = models.BooleanField(default=False)
    # When the AI took the seat over (null while its person plays it).
    ai_controlled_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(user__isnull=False),
                name="seat_unique_user",
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.index} of game {self.game_id}"


class MoveCause(models.TextChoices):
    PLAYER = "player", "The seat's player"
    AI = "ai", "The AI"
    TIMEOUT = "timeout", "A missed deadline"


class Move(models.Model):
    """One applied action and the events it caused (with their private parts)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # 1, 2, 3, ... per game
    seat = models.PositiveSmallIntegerField(null=True)  # null for system events
    action = models.JSONField(null=True)
    events = models.JSONField(default=list)
    version = models.PositiveIntegerField()  # the game's version after this move
    by_ai = models.BooleanField(default=False)
    cause = models.CharField(max_length=8, choices=MoveCause.choices, default=MoveCause.PLAYER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_unique_number"),
        ]


class MissedDeadline(models.Model):
    """One row per missed deadline: the unique (game, version) makes its effect happen once."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="missed_deadlines")
    version = models.PositiveIntegerField()  # the game version whose deadline passed
    seats = models.JSONField(default=list)
    policy = models.CharField(max_length=16, choices=TimeoutPolicy.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="missed_deadline_once"),
        ]


class IdempotencyRecord(models.Model):
    """The outcome of a request carrying an Idempotency-Key, and its first answer, replayed
    on retries: stored with the move (``status_code`` and ``version``, or ``problem`` for a
    refusal), and a move's answer (``body``, ``headers``) once it is rendered after the
    commit."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)  # sha256 of method, path and body
    status_code = models.PositiveSmallIntegerField(null=True)
    version = models.PositiveIntegerField(null=True)  # the game version the move made
    problem = models.JSONField(null=True)  # a refusal's problem body
    outcome_at = models.DateTimeField(null=True)
    body = models.BinaryField(null=True)
    headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key"),
        ]
        # The sweep forgets the keys older than IDEMPOTENCY_KEY_HOURS.
        indexes = [models.Index(fields=["created_at"], name="idempotency_created_at")]


class Vacation(models.Model):
    """Days during which a player's clocks stop (deadlines wait for the vacation's end)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"])]


class Epoch(models.Model):
    """The restore epoch: one row, given a new random ``value`` by ``manage.py restored``
    after every restore from a backup. Every game ETag and stream id names it, so what a
    client holds from before a restore (from a history the restore lost) never matches
    the restored games (docs/decisions/0320)."""

    value = models.CharField(max_length=16)
    set_at = models.DateTimeField(auto_now=True)
