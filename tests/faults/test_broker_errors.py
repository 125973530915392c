"""A broker or cache that does not answer never fails the request that needed it."""

from __future__ import annotations

import logging

import pytest
from django.db import transaction
from kombu.exceptions import OperationalError

from tests.processes import free_port
from ttr_service.storage.cache import FailOpenRedisCache
from ttr_service.tasks.sending import send_task, send_task_on_commit


class _Unreachable:
    name = "tests.unreachable"

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def delay(self, *args):
        self.calls.append(args)
        raise OperationalError("Error 111 connecting to 127.0.0.1:6390. Connection refused.")


def test_a_task_the_broker_refuses_is_logged_not_raised(caplog):
    task = _Unreachable()
    with caplog.at_level(logging.WARNING, logger="ttr_service.tasks.sending"):
        assert send_task(task, 12, 7) is False
    assert task.calls == [(12, 7)]
    assert "Could not queue tests.unreachable(12, 7)" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_task_queued_on_commit_does_not_fail_the_committed_transaction():
    task = _Unreachable()
    with transaction.atomic():
        send_task_on_commit(task, 3)
        assert task.calls == []
    assert task.calls == [(3,)]


def test_a_programming_error_while_queueing_still_raises():
    class Broken:
        name = "tests.broken"

        def delay(self, *args):
            raise TypeError("bad arguments")

    with pytest.raises(TypeError):
        send_task(Broken(), 1)


def test_the_cache_fails_open_while_redis_does_not_answer(caplog):
    cache = FailOpenRedisCache(
        f"redis://127.0.0.1:{free_port()}/0",
        {"OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}},
    )
    with caplog.at_level(logging.WARNING, logger="ttr_service.storage.cache"):
        assert cache.get("throttle", "missing") == "missing"
        cache.set("throttle", [1, 2])
        assert cache.add("throttle", [1]) is False
        assert cache.get_many(["a", "b"]) == {}
        assert cache.delete("throttle") is False
        assert cache.count_hit("throttle", 60) == (0, 0.0)  # the throttle lets it through
    assert "Cache get skipped: Redis does not answer" in caplog.text
    assert "Cache set skipped" in caplog.text
    assert "Cache count_hit skipped" in caplog.text
