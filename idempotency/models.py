"""The first answer of each keyed write, replayed on the key's retries."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class KeyedAnswer(models.Model):
    """One Idempotency-Key of one caller (``user``, or nobody for a request made without a
    token) and the answer its first request got.

    The key is stored only as its SHA-256 (``key_digest``). ``fingerprint`` and ``content``
    are keyed by the key itself with the service's secret: the fingerprint is an HMAC of the
    request, and the answer is encrypted (AES-GCM), so a token or a secret an answer carries
    can be read back only by a client that presents the key again. ``status_code`` is null
    while the first request runs or after it failed with no answer to keep.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True
    )
    key_digest = models.CharField(max_length=64)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    content = models.BinaryField(null=True, blank=True)
    headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key_digest"],
                condition=models.Q(user__isnull=False),
                name="keyed_answer_unique_user_key",
            ),
            models.UniqueConstraint(
                fields=["key_digest"],
                condition=models.Q(user__isnull=True),
                name="keyed_answer_unique_anonymous_key",
            ),
        ]
        # Forgetting the keys older than IDEMPOTENCY_KEY_HOURS reads by age.
        indexes = [models.Index(fields=["created_at"], name="keyed_answer_created_at")]

    def __str__(self) -> str:
        return f"Key {self.key_digest[:12]}… of {self.user_id or 'a caller without a token'}"
