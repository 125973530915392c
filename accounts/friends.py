"""Commands of friendship: send a friend request, accept, decline or cancel it, remove a
friend. Each owns its transaction.

Two players' relation changes one command at a time: a command that reads what stands
between them and then writes locks both players' user rows first, the lower id first
(``pair_lock``). So two players who send each other a request at the same moment end as
friends exactly once: the second request waits for the first to commit, then finds it
and accepts it. The limits are exact for the same reason (each player's row is locked
while their requests or friends are counted). The unique pair of ``Friendship`` and the
unique (sender, recipient) of ``FriendRequest`` hold even without the lock.

A request to a player who blocks the sender is stored ``hidden``: its sender sees it
pending like any other and its recipient never sees it, so sending one does not tell the
sender they are blocked.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts import events
from accounts.models import FriendRequest, Friendship
from accounts.relations import (
    are_friends,
    blocks_between,
    friend_count,
    pair,
    player_named,
)
from accounts.services import user_find
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError


def pair_lock(a: int, b: int) -> None:
    """Lock the two players' user rows, the lower id first (so two commands on the same
    pair never wait for each other in a circle). SQLite serialises writers instead."""
    rows = User.objects.select_for_update().filter(pk__in=pair(a, b)).order_by("pk")
    list(rows.values_list("pk", flat=True))


def named_yourself(detail: str) -> ServiceError:
    return ServiceError(Code.NAMED_YOURSELF, detail)


def friend_request_send(sender: User, username: str) -> FriendRequest | Friendship:
    """A friend request from ``sender`` to the player named ``username``; or, when that
    player has sent ``sender`` one already, their friendship (that request accepted)."""
    recipient = player_named(username)
    if recipient.pk == sender.pk:
        raise named_yourself(_("That is your own username: you can't befriend yourself."))
    name = recipient.get_username()
    with transaction.atomic():
        pair_lock(sender.pk, recipient.pk)
        blocks = blocks_between(sender.pk, recipient.pk)
        if (sender.pk, recipient.pk) in blocks:
            raise ServiceError(
                Code.PLAYER_BLOCKED,
                _("You block %(username)s; unblock them to send a friend request.")
                % {"username": name},
            )
        if are_friends(sender.pk, recipient.pk):
            raise ServiceError(
                Code.ALREADY_FRIENDS,
                _("You and %(username)s are friends already.") % {"username": name},
            )
        if FriendRequest.objects.filter(sender=sender, recipient=recipient).exists():
            raise ServiceError(
                Code.FRIEND_REQUEST_PENDING,
                _("You have sent %(username)s a friend request already.") % {"username": name},
            )
        hidden = (recipient.pk, sender.pk) in blocks
        theirs = FriendRequest.objects.filter(sender=recipient, recipient=sender).first()
        if theirs is not None and not hidden:
            theirs.sender, theirs.recipient = recipient, sender
            return _accept(theirs)
        _check_room_for_request(sender)
        request = FriendRequest.objects.create(sender=sender, recipient=recipient, hidden=hidden)
        if not hidden:
            events.request_sent(request)
    return request


def _check_room_for_request(sender: User) -> None:
    limit = settings.MAX_PENDING_FRIEND_REQUESTS
    if FriendRequest.objects.filter(sender=sender).count() >= limit:
        raise ServiceError(
            Code.FRIEND_REQUEST_LIMIT_REACHED,
            _(
                "You have %(limit)d friend requests waiting for an answer, the most allowed; "
                "cancel one or wait for answers."
            )
            % {"limit": limit},
        )


def _accept(request: FriendRequest) -> Friendship:
    """The friendship a request (its pair locked, its users read) makes; the request, and
    any the other way, are done with."""
    requester, accepter = request.sender, request.recipient
    limit = settings.MAX_FRIENDS_PER_USER
    for user in (accepter, requester):
        if friend_count(user.pk) >= limit:
            detail = (
                _("You have %(limit)d friends, the most allowed.")
                if user is accepter
                else _("%(username)s has %(limit)d friends, the most allowed.")
            ) % {"limit": limit, "username": user.get_username()}
            raise ServiceError(Code.FRIEND_LIMIT_REACHED, detail)
    low, high = (requester, accepter) if requester.pk < accepter.pk else (accepter, requester)
    friendship = Friendship.objects.create(user_low=low, user_high=high)
    FriendRequest.objects.filter(
        Q(sender=requester, recipient=accepter) | Q(sender=accepter, recipient=requester)
    ).delete()
    events.friends_made(friendship, requester=requester, accepter=accepter)
    return friendship


def _visible(user: User, request_id: int) -> FriendRequest:
    """A friend request ``user`` sent, or was sent and may see; else 404 (someone else's
    request reads as one that does not exist)."""
    mine = Q(sender=user) | Q(recipient=user, hidden=False)
    found = (
        FriendRequest.objects.filter(mine, pk=request_id)
        .select_related("sender", "recipient")
        .first()
    )
    if found is None:
        raise _no_such_request()
    return found


def _no_such_request() -> ServiceError:
    return ServiceError(Code.FRIEND_REQUEST_NOT_FOUND, _("You have no such friend request."))


def _delete(request: FriendRequest) -> None:
    """Delete a request read a moment ago, unless an answer came first (404 then)."""
    deleted = FriendRequest.objects.filter(pk=request.pk).delete()[0]
    if not deleted:
        raise _no_such_request()


def _answered_by_recipient(user: User, request: FriendRequest) -> None:
    if request.recipient_id != user.pk:
        raise ServiceError(
            Code.PERMISSION_DENIED,
            _("You sent this friend request: only its recipient answers it (you may cancel it)."),
        )


def friend_request_accept(user: User, request_id: int) -> Friendship:
    """Accept a friend request sent to ``user``: the two are friends from now on."""
    request = _visible(user, request_id)
    _answered_by_recipient(user, request)
    with transaction.atomic():
        pair_lock(user.pk, request.sender_id)
        # Read again under the lock: it may have been cancelled or declined meanwhile.
        return _accept(_visible(user, request_id))


def friend_request_decline(user: User, request_id: int) -> None:
    """Decline a friend request sent to ``user``; its sender is not told, but sees it no
    longer pending."""
    request = _visible(user, request_id)
    _answered_by_recipient(user, request)
    _delete(request)


def friend_request_cancel(user: User, request_id: int) -> None:
    """Take back a friend request ``user`` sent."""
    request = _visible(user, request_id)
    if request.sender_id != user.pk:
        raise ServiceError(
            Code.PERMISSION_DENIED,
            _(
                "This friend request was sent to you: only its sender cancels it (you may "
                "decline it)."
            ),
        )
    _delete(request)


def friend_remove(user: User, username: str) -> None:
    """End ``user``'s friendship with the player named ``username``; the other is not
    told, but no longer finds ``user`` among their friends."""
    other = user_find(username)
    low, high = pair(user.pk, other.pk) if other is not None else (0, 0)
    deleted = Friendship.objects.filter(user_low=low, user_high=high).delete()[0]
    if not deleted:
        raise ServiceError(
            Code.FRIEND_NOT_FOUND,
            _("'%(username)s' is not one of your friends.") % {"username": username},
        )
