"""API tokens: knox's hashed, expiring tokens, with a name and a last-use time."""

from __future__ import annotations

from django.db import models
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS

TOKEN_NAME_MAX_LENGTH = 64


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
