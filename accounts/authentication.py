"""Knox token authentication that also records when each token was last used."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from knox.auth import TokenAuthentication as KnoxTokenAuthentication

from accounts.models import AuthToken

# At most one write per token per interval, so a busy client does not update its row on
# every request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class TokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <key>``: knox's checks (digest, expiry, active user)."""

    def validate_user(self, auth_token: AuthToken) -> tuple[Any, AuthToken]:
        user, token = super().validate_user(auth_token)
        now = timezone.now()
        if token.last_used is None or now - token.last_used >= LAST_USED_RESOLUTION:
            AuthToken.objects.filter(pk=token.pk).update(last_used=now)
            token.last_used = now
        return user, token
