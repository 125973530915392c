"""Notifications, the outbox of their deliveries, and where and when a user wants them.

A ``Notification`` is the in-app record. Every other channel gets one ``Delivery`` row
per destination (a webhook endpoint, the user's email address, a push device), written in
the same transaction as the notification: the outbox that the Celery tasks drain.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn", "It is your turn"
    DEADLINE_APPROACHING = "deadline_approaching", "Your turn's deadline is near"
    TIMED_OUT = "timed_out", "Your turn timed out"
    SEAT_TAKEN_OVER = "seat_taken_over", "The AI took over your seat"
    INVITATION = "invitation", "You are invited to a game"
    GAME_STARTED = "game_started", "A game of yours started"
    GAME_OVER = "game_over", "A game of yours is over"
    FRIEND_REQUEST = "friend_request", "A player asks to be your friend"
    FRIEND_ACCEPTED = "friend_accepted", "A player accepted your friend request"
    EXPORT_READY = "export_ready", "Your data export is ready to download"
    MATCH_FOUND = "match_found", "A quick match found your game"
    REMATCH_OFFERED = "rematch_offered", "A player asks for a rematch"
    REMATCH_DECLINED = "rematch_declined", "A player declined the rematch"
    CHAT_MESSAGE = "chat_message", "New messages in your game's chat"


class Channel(models.TextChoices):
    WEBHOOK = "webhook", "Webhook"
    EMAIL = "email", "Email"
    PUSH = "push", "Push"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Waiting to be sent (now or at next_attempt_at)"
    SENDING = "sending", "Claimed by a worker"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Given up"


class Platform(models.TextChoices):
    FCM = "fcm", "Firebase Cloud Messaging"
    APNS = "apns", "Apple Push Notification service"


class Notification(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=32, choices=Kind.choices)
    # A plain id, not a foreign key: a notification outlives nothing it points at.
    game_id = models.BigIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    dedupe_key = models.CharField(max_length=200, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "dedupe_key"],
                condition=models.Q(dedupe_key__isnull=False),
                name="notification_unique_dedupe_key",
            ),
        ]
        indexes = [models.Index(fields=["user", "read_at"])]

    def __str__(self) -> str:
        return f"{self.kind} for user {self.user_id}"


class WebhookEndpoint(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    name = models.CharField(max_length=100, blank=True, default="")
    url = models.URLField(max_length=2000)
    # Kinds this endpoint wants; empty means every kind.
    events = models.JSONField(default=list, blank=True)
    active = models.BooleanField(default=True)
    # "whsec_" + base64 of random bytes, the form the standardwebhooks library reads.
    secret = models.CharField(max_length=100)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Webhook {self.pk} of user {self.user_id}"

    def wants(self, kind: str) -> bool:
        return self.active and (not self.events or kind in self.events)


class Device(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices"
    )
    platform = models.CharField(max_length=8, choices=Platform.choices)
    token = models.CharField(max_length=512)
    name = models.CharField(max_length=100, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    # Switched off when FCM or APNs reports the token invalid or unregistered; registering
    # the token again switches it back on.
    active = models.BooleanField(default=True)
    deactivated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["platform", "token"], name="device_unique_token"),
        ]

    def __str__(self) -> str:
        return f"{self.platform} device {self.pk} of user {self.user_id}"


class Preference(models.Model):
    """A user's choices; a user without a row has the defaults of ``preferences.py``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    # {kind: {"webhook": bool, "email": bool, "push": bool}} for the kinds the user set.
    channels = models.JSONField(default=dict, blank=True)
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    quiet_timezone = models.CharField(max_length=64, blank=True, default="")

    def __str__(self) -> str:
        return f"Notification preferences of user {self.user_id}"


def _message_id() -> str:
    return f"msg_{uuid.uuid4().hex}"


class Delivery(models.Model):
    """One outbox row: a notification to send over one channel to one destination."""

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    channel = models.CharField(max_length=8, choices=Channel.choices)
    endpoint = models.ForeignKey(
        WebhookEndpoint,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="deliveries",
    )
    device = models.ForeignKey(
        Device, on_delete=models.CASCADE, null=True, blank=True, related_name="deliveries"
    )
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    # When a pending row is due: now, after a backoff, or when quiet hours end.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # A claimed row belongs to the worker holding claim_token until claimed_until.
    claim_token = models.UUIDField(null=True, blank=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    # The webhook-id header: the same for every attempt, so receivers can drop repeats.
    message_id = models.CharField(max_length=40, default=_message_id)
    last_response_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["status", "next_attempt_at"]),
            models.Index(fields=["status", "claimed_until"]),
        ]

    def __str__(self) -> str:
        return f"{self.channel} delivery {self.pk} ({self.status})"
