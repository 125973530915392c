"""A keyed move's answer is rendered after its commit and kept by one more statement.

Between the two, a retry gets 409 ``IDEMPOTENCY_KEY_IN_FLIGHT``; had the process stopped
there, a retry made ``ANSWER_GRACE`` later gets the game as it is then, without the move
being applied again; a refusal is kept with its transaction and replayed byte for byte.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.commands.play import ANSWER_GRACE
from games.models import Game, IdempotencyRecord, Move

from .conftest import keyed_move

pytestmark = pytest.mark.django_db


def _answer_lost(key: str) -> None:
    """As if the process stopped after the move committed, before its answer was kept."""
    IdempotencyRecord.objects.filter(key=key).update(body=None, headers={})


def test_the_answer_is_kept_after_the_move(started, creator):
    version = Game.objects.get(pk=started).version
    first = keyed_move(creator, started, "a-1", version)
    record = IdempotencyRecord.objects.get(key="a-1")
    assert (record.status_code, record.version) == (200, version + 1)
    assert bytes(record.body) == first.content
    assert record.headers == {"Content-Type": "application/json", "ETag": first["ETag"]}


def test_a_retry_before_the_answer_is_kept_is_told_to_wait(started, creator):
    version = Game.objects.get(pk=started).version
    keyed_move(creator, started, "a-2", version)
    _answer_lost("a-2")
    again = keyed_move(creator, started, "a-2", version)
    assert again.status_code == 409
    assert again.json()["code"] == "IDEMPOTENCY_KEY_IN_FLIGHT"
    assert again["Retry-After"] == "1"
    assert Game.objects.get(pk=started).version == version + 1


def test_an_answer_never_kept_is_the_game_as_it_is_then(started, creator):
    version = Game.objects.get(pk=started).version
    first = keyed_move(creator, started, "a-3", version)
    moves = Move.objects.filter(game_id=started).count()
    _answer_lost("a-3")
    with time_machine.travel(timezone.now() + ANSWER_GRACE + timedelta(seconds=1)):
        again = keyed_move(creator, started, "a-3", version)
        assert again.status_code == 200
        assert again["Idempotent-Replayed"] == "true"
        # Nothing changed since the move, so its view is what the first answer was.
        assert again.content == first.content
        assert Move.objects.filter(game_id=started).count() == moves
        later = keyed_move(creator, started, "a-3", version)
    assert later.content == first.content
    assert later["Idempotent-Replayed"] == "true"


def test_a_refusal_is_replayed_as_it_was_first_given(started, creator):
    version = Game.objects.get(pk=started).version
    first = keyed_move(creator, started, "a-4", version + 7)
    assert first.status_code == 412
    assert "Idempotent-Replayed" not in first
    record = IdempotencyRecord.objects.get(key="a-4")
    assert (record.status_code, record.problem["code"]) == (412, "VERSION_MISMATCH")
    again = keyed_move(creator, started, "a-4", version + 7)
    assert (again.status_code, again.content) == (412, first.content)
    assert again["Idempotent-Replayed"] == "true"
