"""An Idempotency-Key is remembered for IDEMPOTENCY_KEY_HOURS (24): within that time a
retry gets the first answer; after it, the key is forgotten by the sweep, and the same key
is a new request."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.models import Game, IdempotencyRecord
from games.worker.tasks import sweep_deadlines

from .conftest import keyed_move

pytestmark = pytest.mark.django_db


def test_a_retry_within_the_time_is_replayed(started, creator):
    version = Game.objects.get(pk=started).version
    first = keyed_move(creator, started, "k-1", version)
    assert first.status_code == 200
    with time_machine.travel(timezone.now() + timedelta(hours=23), tick=False):
        again = keyed_move(creator, started, "k-1", version)
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.content == first.content


def test_after_the_time_the_same_key_is_a_new_request(started, creator, settings):
    settings.IDEMPOTENCY_KEY_HOURS = 24
    version = Game.objects.get(pk=started).version
    assert keyed_move(creator, started, "k-2", version).status_code == 200
    moved = Game.objects.get(pk=started).version
    with time_machine.travel(timezone.now() + timedelta(hours=25), tick=False):
        # The same body again: run anew, so its version is now stale.
        stale = keyed_move(creator, started, "k-2", version)
        assert stale.status_code == 412, stale.content
        assert "Idempotent-Replayed" not in stale
        assert Game.objects.get(pk=started).version == moved
    # Another body under the same key is no reuse once the key was forgotten.
    with time_machine.travel(timezone.now() + timedelta(hours=50), tick=False):
        fresh = keyed_move(creator, started, "k-2", moved, {"type": "draw_blind"})
        assert fresh.status_code == 200, fresh.content


def test_the_sweep_forgets_keys_past_their_time(started, creator):
    version = Game.objects.get(pk=started).version
    assert keyed_move(creator, started, "old", version).status_code == 200
    with time_machine.travel(timezone.now() + timedelta(hours=20), tick=False):
        assert keyed_move(creator, started, "new", version + 1).status_code == 200
    with time_machine.travel(timezone.now() + timedelta(hours=25), tick=False):
        result = sweep_deadlines()
    assert result["keys_forgotten"] == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
