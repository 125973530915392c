"""What happens between players, told to whichever app listens (notifications).

Each signal is sent inside the transaction of the change it reports, so what a receiver
writes commits or rolls back with it (as ``games.events``). Sent with keyword arguments:

- ``friend_request_sent`` (by ``FriendRequest``): ``request``, with its ``sender`` and
  ``recipient`` read; never for a request its recipient does not see (``hidden``);
- ``friendship_started`` (by ``Friendship``): ``friendship``, ``requester`` (who sent the
  request) and ``accepter`` (who accepted it, or sent a request back).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.dispatch import Signal

from accounts.models import FriendRequest, Friendship

friend_request_sent = Signal()
friendship_started = Signal()


def request_sent(request: FriendRequest) -> None:
    friend_request_sent.send(sender=FriendRequest, request=request)


def friends_made(friendship: Friendship, requester: User, accepter: User) -> None:
    friendship_started.send(
        sender=Friendship, friendship=friendship, requester=requester, accepter=accepter
    )
