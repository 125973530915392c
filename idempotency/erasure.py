"""An erased account's kept answers go with it (``account_erase``, one of the erasers
``privacy.erasure`` runs): they may hold its data, sealed under keys only it held."""

from __future__ import annotations

from django.contrib.auth.models import User

from idempotency.models import KeyedAnswer


def account_erase(user: User) -> None:
    KeyedAnswer.objects.filter(user=user).delete()
