"""Asking for an account's deletion, its grace period, and its erasure.

A deletion is confirmed by the account's password, or, for an account that signs in only
with Apple or Google (no usable password), by ``confirm`` of ``DELETE``. Every token of the
account is revoked at once. With ``ACCOUNT_DELETION_GRACE_HOURS`` of 0 (the default) the
account is erased right after the request commits; otherwise at the end of the grace,
by the beat's sweep. Signing in again during the grace period (a password login, or a
provider's sign-in) cancels the deletion: ``user_logged_in`` deletes the waiting row,
unless a worker has already begun the erasure, which then finishes.

Many workers may sweep at once: each account's erasure is claimed by a compare-and-swap
on ``claimed_until`` (a lease), and every eraser is safe to run twice, so an erasure whose
worker died is taken over once its lease has run out.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import AuthToken
from privacy.erasure import account_erase
from privacy.models import AccountDeletion
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

logger = logging.getLogger(__name__)

CONFIRM_WORD = "DELETE"
# How long one worker holds an account's erasure before another may take it over.
LEASE = timedelta(minutes=10)


def _confirmed(user: User, password: str | None, confirm: str | None) -> None:
    if user.has_usable_password():
        if password is None:
            raise ServiceError(
                Code.DELETION_NOT_CONFIRMED, _("Send the account's password to delete it.")
            )
        if not user.check_password(password):
            raise ServiceError(Code.CURRENT_PASSWORD_WRONG, _("The password is wrong."))
    elif confirm != CONFIRM_WORD:
        raise ServiceError(
            Code.DELETION_NOT_CONFIRMED,
            _("This account has no password: send confirm of '%(word)s' to delete it.")
            % {"word": CONFIRM_WORD},
        )


def deletion_request(
    user: User, *, password: str | None, confirm: str | None, now: datetime | None = None
) -> AccountDeletion:
    """Revoke every token of ``user`` and have the account erased when its grace ends
    (right after the commit without one)."""
    _confirmed(user, password, confirm)
    now = now or timezone.now()
    erase_at = now + timedelta(hours=settings.ACCOUNT_DELETION_GRACE_HOURS)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        AuthToken.objects.filter(user=user).delete()
        deletion, _made = AccountDeletion.objects.update_or_create(
            user=user, defaults={"requested_at": now, "erase_at": erase_at}
        )
        if erase_at <= now:
            user_id = user.pk
            # robust: a failure is logged and left to the sweep, the answer stands.
            transaction.on_commit(lambda: deletion_carry_out(user_id), robust=True)
    return deletion


def deletion_carry_out(user_id: int, now: datetime | None = None) -> bool:
    """Erase the account if its deletion is due and no other worker holds it; True if
    this call erased it."""
    now = now or timezone.now()
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    claimed = AccountDeletion.objects.filter(free, user_id=user_id, erase_at__lte=now).update(
        claimed_until=now + LEASE
    )
    if not claimed:
        return False
    user = User.objects.get(pk=user_id)
    account_erase(user)
    AccountDeletion.objects.filter(user_id=user_id).delete()
    logger.info("Erased the account of user %s", user_id)
    return True


def deletions_sweep(now: datetime | None = None) -> int:
    """Erase every account whose deletion is due (the beat's sweep); how many it erased."""
    now = now or timezone.now()
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    due = AccountDeletion.objects.filter(free, erase_at__lte=now).order_by("erase_at")
    return sum(
        1 for user_id in due.values_list("user_id", flat=True) if deletion_carry_out(user_id, now)
    )


def deletion_cancel(user: User) -> bool:
    """Cancel the user's waiting deletion, unless its erasure has begun; True if one was."""
    deleted = AccountDeletion.objects.filter(user=user, claimed_until__isnull=True).delete()[0]
    return deleted > 0


def _on_sign_in(sender: Any, user: User, **_: Any) -> None:
    if deletion_cancel(user):
        logger.info("User %s signed in again: their account's deletion is cancelled", user.pk)


def connect() -> None:
    """A sign-in during the grace period cancels the deletion (once, however often called)."""
    user_logged_in.connect(_on_sign_in, dispatch_uid="privacy.deletion_cancel")
