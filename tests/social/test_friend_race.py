"""Two players who send each other a friend request at the same moment end as friends
exactly once, on the real PostgreSQL server: the pair's lock, not luck.

Each request runs in its own thread, with its own database connection and transaction,
through the whole HTTP stack.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection

from accounts import friends
from accounts.models import FriendRequest, Friendship
from notifications.models import Notification
from tests.concurrency import run_at_once

from .conftest import Player, player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 20
GUARD_SECONDS = 30  # only against a hang; nothing here depends on timing


def pair_state(a: Player, b: Player) -> tuple[int, int]:
    users = [a.user, b.user]
    friendships = Friendship.objects.filter(user_low__in=users, user_high__in=users).count()
    pending = FriendRequest.objects.filter(sender__in=users, recipient__in=users).count()
    return friendships, pending


def test_crossing_requests_sent_at_once_make_one_friendship_every_time() -> None:
    for round_ in range(ROUNDS):
        a, b = player(f"a{round_}"), player(f"b{round_}")

        answers = run_at_once([lambda a=a, b=b: a.send(b.name), lambda a=a, b=b: b.send(a.name)])

        assert sorted(r.status_code for r in answers) == [200, 201], [r.content for r in answers]
        assert pair_state(a, b) == (1, 0)
        told = Notification.objects.filter(user__in=[a.user, b.user])
        assert sorted(told.values_list("kind", flat=True)) == ["friend_accepted", "friend_request"]


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def test_a_request_that_arrives_while_the_other_is_inside_waits_and_accepts_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice, bob = player("alice"), player("bob")
    inside, release = threading.Event(), threading.Event()
    real_lock = friends.pair_lock

    def held_lock(a: int, b: int) -> None:
        real_lock(a, b)
        if not inside.is_set():  # the first request holds the pair until released
            inside.set()
            assert release.wait(GUARD_SECONDS)

    monkeypatch.setattr(friends, "pair_lock", held_lock)

    def first() -> Any:
        return alice.send("bob")

    def second() -> Any:
        assert inside.wait(GUARD_SECONDS)
        return bob.send("alice")

    def watch() -> None:
        # The second request must be waiting for the first one's lock before it goes on.
        assert inside.wait(GUARD_SECONDS)
        deadline = time.monotonic() + GUARD_SECONDS
        try:
            while not _waiting_on_a_lock():
                assert time.monotonic() < deadline, "the second request never waited"
                time.sleep(0.02)
        finally:
            release.set()

    sent, crossed, _ = run_at_once([first, second, watch])

    assert sent.status_code == 201, sent.content
    assert crossed.status_code == 200, crossed.content
    assert crossed.json()["username"] == "alice"
    assert pair_state(alice, bob) == (1, 0)
