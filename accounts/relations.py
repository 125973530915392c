"""What players are to each other: friends, friend requests, blocks, and the preference to
be invited by friends only. These are the reads; ``accounts.friends`` and
``accounts.blocks`` hold the changes.

Other apps consult these facts before they let two players meet:

- ``blocked_between(a, b)`` and ``blocked_among(user_ids)``: whether a block stands between
  two players (either way), or which pairs of a group it stands between (matchmaking,
  messages);
- ``invitation_check(inviter, invitee, username)``: raises the refusal of an invitation
  into a game (the lobby);
- ``seating_check(user_id, present)``: raises the refusal of a seat among players already
  there (the lobby: joining, accepting an invitation);
- ``apart_from(user_id, field)``: a filter that finds the rows whose user (``field``) is
  on the other side of a block with ``user_id``, to leave them out of a list (the open
  lobbies); ``blocked_with(user_id)``: those players.

A refusal that a block causes never tells the blocked player they are blocked: an
invitation to someone who blocks the inviter is refused exactly as one to someone who takes
invitations from friends only (``NOT_INVITABLE``), and a seat beside someone who blocks the
caller is refused without saying who or why (``SEAT_REFUSED``). Only the blocker hears of
their own block (``PLAYER_BLOCKED``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Case, Exists, F, Q, QuerySet, When
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from accounts.models import Block, FriendRequest, Friendship, SocialPreference
from accounts.services import user_find
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError


def pair(a: int, b: int) -> tuple[int, int]:
    """Two user ids, the lower first: how a friendship stores its pair."""
    return (a, b) if a < b else (b, a)


def player_named(username: str) -> User:
    """The player whose name matches ``username`` ignoring case, or 404
    ``PLAYER_NOT_FOUND``."""
    found = user_find(username)
    if found is None:
        raise ServiceError(
            Code.PLAYER_NOT_FOUND, _("No player named '%(username)s'.") % {"username": username}
        )
    return found


# ------------------------------------------------------------------------------ blocks
def blocked_between(a: int, b: int) -> bool:
    """Whether either of the two players blocks the other."""
    return Block.objects.filter(Q(blocker=a, blocked=b) | Q(blocker=b, blocked=a)).exists()


def blocks_between(a: int, b: int) -> set[tuple[int, int]]:
    """The blocks between two players, each as (blocker, blocked)."""
    between = Block.objects.filter(Q(blocker=a, blocked=b) | Q(blocker=b, blocked=a))
    return set(between.values_list("blocker_id", "blocked_id"))


def blocked_among(user_ids: Collection[int]) -> set[frozenset[int]]:
    """The pairs of these players with a block between them (either way), in one query."""
    ids = set(user_ids)
    if len(ids) < 2:
        return set()
    among = Block.objects.filter(blocker__in=ids, blocked__in=ids)
    return {frozenset(row) for row in among.values_list("blocker_id", "blocked_id")}


def apart_from(user_id: int, field: str) -> Q:
    """A filter on ``field``, a user of another model (``created_by``, ``user``): true
    where that user is on the other side of a block with ``user_id``, either way. Two
    subqueries on the blocks' indexes, for lists to leave such rows out
    (``.exclude(apart_from(me, "created_by"))``)."""
    blocked = Block.objects.filter(blocker=user_id).values("blocked")
    blockers = Block.objects.filter(blocked=user_id).values("blocker")
    return Q(**{f"{field}__in": blocked}) | Q(**{f"{field}__in": blockers})


def blocked_with(user_id: int) -> QuerySet[User]:
    """The players on the other side of a block with ``user_id``, either way."""
    return User.objects.filter(apart_from(user_id, "pk"))


def blocks_of(user_id: int) -> QuerySet[Block]:
    """The players ``user_id`` blocks, the latest first."""
    made = Block.objects.filter(blocker=user_id).select_related("blocked")
    return made.order_by("-created_at", "-pk")


# ----------------------------------------------------------------------------- friends
def are_friends(a: int, b: int) -> bool:
    low, high = pair(a, b)
    return Friendship.objects.filter(user_low=low, user_high=high).exists()


def friend_count(user_id: int) -> int:
    return Friendship.objects.filter(Q(user_low=user_id) | Q(user_high=user_id)).count()


def friends_of(user_id: int) -> QuerySet[Any, Mapping[str, Any]]:
    """The player's friends by name (ignoring case): each row's ``friend_id``,
    ``friend_username`` and ``since`` (when they became friends)."""
    low_is_me = Q(user_low=user_id)
    return (
        Friendship.objects.filter(low_is_me | Q(user_high=user_id))
        .annotate(
            friend_id=Case(When(low_is_me, then=F("user_high_id")), default=F("user_low_id")),
            friend_username=Case(
                When(low_is_me, then=F("user_high__username")), default=F("user_low__username")
            ),
        )
        .order_by(Lower("friend_username"), "friend_id")
        .values("friend_id", "friend_username", since=F("created_at"))
    )


def requests_to(user_id: int) -> QuerySet[FriendRequest]:
    """The friend requests waiting for the player's answer, the latest first (those sent
    while the player blocks their sender are not theirs to see)."""
    incoming = FriendRequest.objects.filter(recipient=user_id, hidden=False)
    return incoming.select_related("sender", "recipient").order_by("-created_at", "-pk")


def requests_from(user_id: int) -> QuerySet[FriendRequest]:
    """The friend requests the player sent that wait for an answer, the latest first."""
    outgoing = FriendRequest.objects.filter(sender=user_id)
    return outgoing.select_related("sender", "recipient").order_by("-created_at", "-pk")


# --------------------------------------------------------------------------- preference
def friends_only(user_id: int) -> bool:
    """Whether only the player's friends may invite them into a game."""
    return SocialPreference.objects.filter(
        user=user_id, invitations_from_friends_only=True
    ).exists()


def social_preference_of(user_id: int) -> SocialPreference:
    """The player's stored preference, or the defaults (unsaved) when they set none."""
    found = SocialPreference.objects.filter(user=user_id).first()
    return found if found is not None else SocialPreference(user_id=user_id)


# ---------------------------------------------------------------- refusals of meeting
def invitation_check(inviter: int, invitee: int, username: str) -> None:
    """Refuse an invitation from ``inviter`` to ``invitee`` (named ``username``) into a
    game, in one query: ``PLAYER_BLOCKED`` when the inviter blocks the invitee,
    ``NOT_INVITABLE`` when the invitee blocks the inviter or takes invitations from friends
    only and the two are not friends. The two reasons of ``NOT_INVITABLE`` read the same, so
    the inviter can't tell a block from the preference."""
    low, high = pair(inviter, invitee)
    facts = (
        User.objects.filter(pk=invitee)
        .annotate(
            inviter_blocks=Exists(Block.objects.filter(blocker=inviter, blocked=invitee)),
            invitee_blocks=Exists(Block.objects.filter(blocker=invitee, blocked=inviter)),
            friends=Exists(Friendship.objects.filter(user_low=low, user_high=high)),
            friends_only=Exists(
                SocialPreference.objects.filter(user=invitee, invitations_from_friends_only=True)
            ),
        )
        .values("inviter_blocks", "invitee_blocks", "friends", "friends_only")
        .first()
    )
    if facts is None:
        return
    if facts["inviter_blocks"]:
        raise ServiceError(
            Code.PLAYER_BLOCKED,
            _("You block %(username)s; unblock them to invite them.") % {"username": username},
        )
    if facts["invitee_blocks"] or (facts["friends_only"] and not facts["friends"]):
        raise ServiceError(
            Code.NOT_INVITABLE,
            _("%(username)s can't be invited by you.") % {"username": username},
        )


def seating_check(user_id: int, present: Collection[int]) -> None:
    """Refuse ``user_id`` a seat beside the players ``present`` (a lobby's creator and the
    players seated) when a block stands between them: ``PLAYER_BLOCKED`` when the caller
    blocks one of them, else ``SEAT_REFUSED``, which names neither the player nor the
    reason."""
    others = set(present) - {user_id}
    if not others:
        return
    between = Block.objects.filter(
        Q(blocker=user_id, blocked__in=others) | Q(blocker__in=others, blocked=user_id)
    )
    blockers = set(between.values_list("blocker_id", flat=True))
    if user_id in blockers:
        raise ServiceError(
            Code.PLAYER_BLOCKED,
            _("You block a player in this game; unblock them to take a seat here."),
        )
    if blockers:
        raise ServiceError(Code.SEAT_REFUSED, _("You can't take a seat in this game."))
