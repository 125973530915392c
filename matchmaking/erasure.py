"""What an erased account leaves in matchmaking (``account_erase``, run first by
``privacy.erasure``, so that no pairing seats the account while it is erased): none of its
seeks, waiting or past, and no rematch left open that waits for it. A rematch it declined,
or that was made, stays with the finished game it belongs to, naming the pseudonym.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from .models import Rematch, RematchStatus, Seek


def account_erase(user: User) -> None:
    with transaction.atomic():
        # Held seeks wait for the pairing that holds them, so none is paired afterwards.
        list(Seek.objects.select_for_update().filter(user=user).values_list("pk", flat=True))
        Seek.objects.filter(user=user).delete()
        # An open rematch of a game the account sat in can never be agreed by all now.
        Rematch.objects.filter(status=RematchStatus.OPEN, game__seats__user=user).update(
            status=RematchStatus.DECLINED, declined_by=user
        )
