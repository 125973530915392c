"""Chat at a game's table: messages in two rooms, mutes, reports and suspensions.

Each game has a players' room and a spectators' room (``Room``). A message holds only what
its sender typed (``text``) or the code of a quick message (``quick``), never anything else
about the game. Every row of a user goes with the user (``CASCADE``), so erasing an
account erases its messages, mutes and reports.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

MAX_TEXT = 500


class Room(models.TextChoices):
    PLAYERS = "players", "The players' room"
    SPECTATORS = "spectators", "The spectators' room"


class Message(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="messages")
    room = models.CharField(max_length=16, choices=Room.choices)
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    # The sender's seat when they posted; null in the spectators' room.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # What the sender typed, trimmed; blank for a quick message.
    text = models.CharField(max_length=MAX_TEXT, blank=True, default="")
    # The code of a quick message (``chat.quick``); blank for typed text.
    quick = models.CharField(max_length=32, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # Hidden by a moderator: no longer listed to anyone.
    hidden = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["game", "room", "id"], name="chat_message_room")]

    def __str__(self) -> str:
        return f"Message {self.pk} in game {self.game_id} ({self.room})"


class Mute(models.Model):
    """``user`` no longer sees ``muted``'s messages, in any game."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_muted_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once"),
        ]

    def __str__(self) -> str:
        return f"User {self.user_id} mutes user {self.muted_id}"


class ReportReason(models.TextChoices):
    SPAM = "spam", "Spam"
    ABUSE = "abuse", "Abuse"
    CHEATING = "cheating", "Cheating"
    OTHER = "other", "Other"


class ChatReport(models.Model):
    """A message reported to the moderators, once per reporter."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    reason = models.CharField(max_length=16, choices=ReportReason.choices)
    note = models.CharField(max_length=MAX_TEXT, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # When a moderator dealt with it (hid the message, suspended the sender, or let it be).
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
        ]
        indexes = [models.Index(fields=["resolved_at", "id"], name="chat_report_open")]

    def __str__(self) -> str:
        return f"Report {self.pk} of message {self.message_id} ({self.reason})"


class ChatSuspension(models.Model):
    """A user may not post in any room until ``until`` (null: until lifted)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_suspension"
    )
    until = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=MAX_TEXT, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Chat suspension of user {self.user_id}"
