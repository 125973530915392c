"""What an erased account leaves in the ratings (``account_erase``, one of the erasers
``privacy.erasure`` runs).

Its statistics and ratings per board go, so the pseudonym is on no leaderboard. How each
rated game moved its rating (``RatingChange``) stays: it is part of the record of that
finished game, beside the other players' changes, which were computed against it."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from .models import PlayerStats, Rating


def account_erase(user: User) -> None:
    with transaction.atomic():
        PlayerStats.objects.filter(user=user).delete()
        Rating.objects.filter(user=user).delete()
