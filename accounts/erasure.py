"""What an erased account leaves in the accounts (``account_erase``, the last of the erasers
``privacy.erasure`` runs): the user row, under a pseudonym, for the seats of finished games
that point at it, and nothing else.

The username becomes ``deleted-player-<random>``; the e-mail, names, password (made
unusable), last sign-in, groups and permissions are cleared and the account is made
inactive. Every token, verified or waiting e-mail, Apple or Google identity, friendship,
friend request (either way), block (either way), social and language preference goes, and so do the
failed logins django-axes counted under the old name.
"""

from __future__ import annotations

import secrets

from axes.utils import reset as lockouts_reset
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q

from accounts.models import (
    AuthToken,
    Block,
    EmailVerification,
    FriendRequest,
    Friendship,
    LanguagePreference,
    ProviderIdentity,
    SocialPreference,
    VerifiedEmail,
)

PSEUDONYM_PREFIX = "deleted-player-"
# 12 hex digits: the pseudonym is 27 characters, within the usernames' 32.
_RANDOM_BYTES = 6
_TRIES = 5


def pseudonym() -> str:
    return PSEUDONYM_PREFIX + secrets.token_hex(_RANDOM_BYTES)


def is_erased(user: User) -> bool:
    return not user.is_active and user.get_username().startswith(PSEUDONYM_PREFIX)


def _relations_delete(user: User) -> None:
    AuthToken.objects.filter(user=user).delete()
    VerifiedEmail.objects.filter(user=user).delete()
    EmailVerification.objects.filter(user=user).delete()
    ProviderIdentity.objects.filter(user=user).delete()
    Friendship.objects.filter(Q(user_low=user) | Q(user_high=user)).delete()
    FriendRequest.objects.filter(Q(sender=user) | Q(recipient=user)).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
    SocialPreference.objects.filter(user=user).delete()
    LanguagePreference.objects.filter(user=user).delete()
    user.groups.clear()
    user.user_permissions.clear()


def account_erase(user: User) -> None:
    """Erase what the accounts hold of ``user``; safe to run again (the pseudonym stays)."""
    old_name = user.get_username()
    for attempt in range(_TRIES):
        try:
            with transaction.atomic():
                User.objects.select_for_update().filter(pk=user.pk).first()
                _relations_delete(user)
                if not is_erased(user):
                    user.username = pseudonym()
                user.email, user.first_name, user.last_name = "", "", ""
                if user.has_usable_password():
                    user.set_unusable_password()
                user.is_active, user.is_staff, user.is_superuser = False, False, False
                user.last_login = None
                user.save()
            break
        except IntegrityError:  # the random name was taken: another one
            user.username = old_name
            if attempt == _TRIES - 1:
                raise
    if old_name != user.get_username():
        lockouts_reset(username=old_name)
