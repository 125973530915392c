"""What players are told of each other: receivers of ``accounts.events``.

A friend request tells its recipient (``friend_request``), and a friendship tells the
player whose request was accepted (``friend_accepted``), in the transaction of the change,
each once (a dedupe key). A request its recipient does not see (sent while they block its
sender) sends no signal, so nobody is told of it. ``connect`` is called by
``NotificationsConfig.ready``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from accounts import events
from accounts.models import FriendRequest, Friendship

from .services import notification_send


def on_friend_request_sent(request: FriendRequest, **_: Any) -> None:
    notification_send(
        request.recipient,
        "friend_request",
        data={"friend_request_id": request.pk, "username": request.sender.get_username()},
        dedupe_key=f"friend-request:{request.pk}",
    )


def on_friendship_started(
    friendship: Friendship, requester: User, accepter: User, **_: Any
) -> None:
    notification_send(
        requester,
        "friend_accepted",
        data={"username": accepter.get_username()},
        dedupe_key=f"friendship:{friendship.pk}",
    )


_RECEIVERS = (
    (events.friend_request_sent, FriendRequest, on_friend_request_sent),
    (events.friendship_started, Friendship, on_friendship_started),
)


def connect() -> None:
    """Listen to the accounts' signals (once, however often it is called)."""
    for signal, sender, receiver in _RECEIVERS:
        signal.connect(receiver, sender=sender, dispatch_uid=f"notifications.{receiver.__name__}")
