"""Commands of blocks and of the preference to be invited by friends only.

A block ends what stood between the two players (their friendship, the friend requests
either sent the other) in the transaction that makes it, with the pair locked as in
``accounts.friends``. From then on neither may befriend, invite or sit with the other
(``accounts.relations``). It changes no game: seats taken and invitations sent before it
stay (docs/api.md, "Friends and blocks").
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.friends import named_yourself, pair_lock
from accounts.models import Block, FriendRequest, Friendship, SocialPreference
from accounts.relations import pair, player_named
from accounts.services import user_find
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError


def block_create(blocker: User, username: str) -> tuple[Block, bool]:
    """``blocker`` blocks the player named ``username``; the block, and whether it is new
    (blocking twice changes nothing)."""
    blocked = player_named(username)
    if blocked.pk == blocker.pk:
        raise named_yourself(_("That is your own username: you can't block yourself."))
    with transaction.atomic():
        pair_lock(blocker.pk, blocked.pk)
        existing = Block.objects.filter(blocker=blocker, blocked=blocked).first()
        if existing is not None:
            existing.blocked = blocked
            return existing, False
        block = Block.objects.create(blocker=blocker, blocked=blocked)
        low, high = pair(blocker.pk, blocked.pk)
        Friendship.objects.filter(user_low=low, user_high=high).delete()
        FriendRequest.objects.filter(
            Q(sender=blocker, recipient=blocked) | Q(sender=blocked, recipient=blocker)
        ).delete()
    return block, True


def block_delete(blocker: User, username: str) -> None:
    """``blocker`` no longer blocks the player named ``username``. The friend requests
    that player sent while blocked, which ``blocker`` never saw, are dropped with it: what
    the block ended does not come back."""
    blocked = user_find(username)
    not_blocked = ServiceError(
        Code.BLOCK_NOT_FOUND, _("You do not block '%(username)s'.") % {"username": username}
    )
    if blocked is None:
        raise not_blocked
    with transaction.atomic():
        pair_lock(blocker.pk, blocked.pk)
        deleted = Block.objects.filter(blocker=blocker, blocked=blocked).delete()[0]
        if not deleted:
            raise not_blocked
        FriendRequest.objects.filter(sender=blocked, recipient=blocker, hidden=True).delete()


def social_preference_set(user: User, *, invitations_from_friends_only: bool) -> SocialPreference:
    """Store the player's preference."""
    preference, _made = SocialPreference.objects.update_or_create(
        user=user, defaults={"invitations_from_friends_only": invitations_from_friends_only}
    )
    return preference
