"""A deletion waiting for its time, and the data exports of each account."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class AccountDeletion(models.Model):
    """An account asked to be deleted: erased at ``erase_at`` (at once with no grace
    period). ``claimed_until``: a worker is erasing it until then; another may take it
    over after that. The row goes once the account is erased, or when its owner signs in
    again during the grace period."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="account_deletion",
    )
    requested_at = models.DateTimeField(default=timezone.now)
    erase_at = models.DateTimeField()
    claimed_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["erase_at"], name="account_deletion_due")]

    def __str__(self) -> str:
        return f"Deletion of user {self.user_id} at {self.erase_at}"


class ExportStatus(models.TextChoices):
    PENDING = "pending", "Being built"
    READY = "ready", "Ready to download, once"
    DOWNLOADED = "downloaded", "Downloaded"
    EXPIRED = "expired", "Not downloaded in time"
    FAILED = "failed", "Could not be built"


class DataExport(models.Model):
    """One archive of an account's data, built by a worker, downloaded once by its owner
    until ``expires_at``. ``archive`` holds the JSON, gzipped (a tenth of its size:
    docs/decisions/0502), while it may be downloaded, and is dropped once it is (or once it
    expires)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="data_exports"
    )
    status = models.CharField(
        max_length=16, choices=ExportStatus.choices, default=ExportStatus.PENDING
    )
    created_at = models.DateTimeField(default=timezone.now)
    ready_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    downloaded_at = models.DateTimeField(null=True, blank=True)
    archive = models.BinaryField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="pending"),
                name="data_export_one_pending",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="data_export_of_user"),
            models.Index(fields=["status", "expires_at"], name="data_export_status"),
        ]

    def __str__(self) -> str:
        return f"Export {self.pk} of user {self.user_id} ({self.status})"
