"""API tokens (knox's hashed, expiring tokens, with a name and a last-use time), verified
e-mail addresses and their codes, sign-in identities of Apple and Google, and the relations
between players: friendships, friend requests, blocks, and who may invite whom."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS

from ttr_service.config.languages import LANGUAGES

TOKEN_NAME_MAX_LENGTH = 64
# The length of the user table's email column.
EMAIL_MAX_LENGTH = 254


class AuthToken(AbstractAuthToken):
    """One credential of one user: a phone, a browser, a bot.

    The key itself is never stored: ``digest`` is its SHA-512 and ``token_key`` its first
    characters, which knox uses to find candidate rows and clients see as a ``prefix``. The
    public ``id`` replaces knox's digest primary key so a token can be named in a URL
    without exposing its hash.
    """

    id = models.BigAutoField(primary_key=True)
    digest = models.CharField(max_length=CONSTANTS.DIGEST_LENGTH, unique=True)
    name = models.CharField(max_length=TOKEN_NAME_MAX_LENGTH)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.token_key}… ({self.name}) of {self.user}"


class VerifiedEmail(models.Model):
    """The address an account proved it receives mail at: the user's ``email`` once its code
    was entered. One account per address, compared ignoring case."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="verified_email",
    )
    address = models.EmailField(max_length=EMAIL_MAX_LENGTH)
    verified_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("address"), name="accounts_verified_email_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.address} of {self.user_id}"


class EmailVerification(models.Model):
    """The address an account is verifying now, one at a time, and its code.

    Only the code's HMAC is kept (``code_digest``), empty until the worker has made the code
    and sent it. Each new code is a new ``round``: a message queued for an older round sends
    nothing.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_verification"
    )
    address = models.EmailField(max_length=EMAIL_MAX_LENGTH)
    round = models.PositiveIntegerField(default=1)
    code_digest = models.CharField(max_length=64, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    wrong_attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.address} for {self.user_id} (round {self.round})"


class Provider(models.TextChoices):
    APPLE = "apple", "Apple"
    GOOGLE = "google", "Google"


class ProviderIdentity(models.Model):
    """An account's sign-in with Apple or Google: the provider's stable ``sub`` for the
    person, and the e-mail its last ID token named. One per provider and account."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="provider_identities"
    )
    provider = models.CharField(max_length=16, choices=Provider.choices)
    subject = models.CharField(max_length=255)
    email = models.EmailField(max_length=EMAIL_MAX_LENGTH, blank=True)
    email_verified = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["provider", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["provider", "subject"], name="accounts_identity_subject_unique"
            ),
            models.UniqueConstraint(
                fields=["user", "provider"], name="accounts_identity_one_per_provider"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.provider} {self.subject} of {self.user_id}"


class Friendship(models.Model):
    """Two players who are friends: one row for the pair, the lower user id first, so the
    pair can be friends only once."""

    user_low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    user_high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user_low", "user_high"], name="friendship_unique_pair"
            ),
            models.CheckConstraint(
                condition=models.Q(user_low__lt=models.F("user_high")),
                name="friendship_low_first",
            ),
        ]
        indexes = [models.Index(fields=["user_high"], name="friendship_user_high")]

    def __str__(self) -> str:
        return f"Friends {self.user_low_id} and {self.user_high_id}"


class FriendRequest(models.Model):
    """A friend request waiting for its recipient's answer.

    ``hidden``: sent while the recipient blocks the sender. Its sender sees it pending like
    any other; its recipient never sees it, nor is told of it. Unblocking deletes it.
    """

    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    hidden = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["sender", "recipient"], name="friend_request_once"),
            models.CheckConstraint(
                condition=~models.Q(sender=models.F("recipient")), name="friend_request_not_self"
            ),
        ]
        indexes = [models.Index(fields=["recipient", "hidden"], name="friend_request_incoming")]

    def __str__(self) -> str:
        return f"Friend request {self.pk} from {self.sender_id} to {self.recipient_id}"


class Block(models.Model):
    """``blocker`` blocks ``blocked``: neither may befriend, invite or sit with the other."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]
        indexes = [models.Index(fields=["blocked"], name="block_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class SocialPreference(models.Model):
    """A player's choices about other players; a player without a row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="social_preference",
    )
    # Only friends may invite this player into a game.
    invitations_from_friends_only = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"Social preferences of user {self.user_id}"


class LanguagePreference(models.Model):
    """The language a player chose for the service's texts (``ttr_service.config.languages``);
    a player without a row follows their client's ``Accept-Language``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="language_preference",
    )
    language = models.CharField(max_length=8, choices=LANGUAGES)

    def __str__(self) -> str:
        return f"Language {self.language} of user {self.user_id}"
