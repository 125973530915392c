"""Heartbeats as a worker writes them: the thread, Celery's signals and the sweep's record."""

from __future__ import annotations

import os
from datetime import timedelta
from unittest import mock

import pytest
from celery import current_app
from celery.signals import worker_ready, worker_shutdown
from django.db import OperationalError
from django.utils import timezone

from ops import heartbeats
from ops.models import TaskRun, WorkerHeartbeat
from tests.processes import wait_for


@pytest.fixture
def eager():
    conf = current_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def no_thread_left():
    yield
    heartbeats.stop()


class Consumer:
    """What Celery sends worker_ready with: the worker's consumer, named by its node."""

    def __init__(self, hostname: str) -> None:
        self.hostname = hostname


def _row(hostname: str) -> WorkerHeartbeat | None:
    return WorkerHeartbeat.objects.filter(hostname=hostname).first()


@pytest.mark.django_db
def test_a_new_process_under_the_same_name_takes_the_row_over() -> None:
    heartbeats.beat("celery@a", 100)
    first = _row("celery@a")
    heartbeats.beat("celery@a", 100)
    assert WorkerHeartbeat.objects.count() == 1
    assert _row("celery@a").started_at == first.started_at

    heartbeats.beat("celery@a", 200)

    (row,) = WorkerHeartbeat.objects.all()
    assert row.pid == 200
    assert row.started_at >= first.started_at


@pytest.mark.django_db
def test_rows_not_seen_for_a_day_are_forgotten() -> None:
    long_ago = timezone.now() - timedelta(days=1, minutes=1)
    WorkerHeartbeat.objects.create(
        hostname="celery@gone", pid=1, started_at=long_ago, seen_at=long_ago
    )
    heartbeats.beat("celery@here", 2)

    heartbeats.forget_old()

    assert [w.hostname for w in heartbeats.workers()] == ["celery@here"]


@pytest.mark.django_db
def test_a_sweep_never_run_has_no_age() -> None:
    assert heartbeats.run_age(heartbeats.SWEEP_TASK) is None


@pytest.mark.django_db(transaction=True)
def test_the_ready_signal_starts_the_thread_and_shutdown_removes_the_row(
    settings, no_thread_left
) -> None:
    settings.WORKER_HEARTBEAT_SECONDS = 1
    worker_ready.send(sender=Consumer("celery@signals"))
    wait_for(lambda: _row("celery@signals") is not None, 10, "the first heartbeat")
    assert _row("celery@signals").pid == os.getpid()
    first_seen = _row("celery@signals").seen_at
    wait_for(lambda: _row("celery@signals").seen_at > first_seen, 10, "the next heartbeat")

    worker_shutdown.send(sender=None)

    assert _row("celery@signals") is None
    assert heartbeats._running is None


@pytest.mark.django_db(transaction=True)
def test_a_failed_heartbeat_is_logged_and_the_next_one_is_written(
    settings, no_thread_left, caplog
) -> None:
    settings.WORKER_HEARTBEAT_SECONDS = 1
    real_beat = heartbeats.beat
    calls = []

    def fails_once(hostname: str, pid: int) -> None:
        calls.append(pid)
        if len(calls) == 1:
            raise OperationalError("connection cut")
        real_beat(hostname, pid)

    with mock.patch.object(heartbeats, "beat", side_effect=fails_once):
        heartbeats.start("celery@flaky")
        wait_for(lambda: _row("celery@flaky") is not None, 10, "the heartbeat after a failure")

    assert "Worker heartbeat not recorded" in caplog.text


@pytest.mark.django_db
def test_a_successful_sweep_is_recorded(eager) -> None:
    current_app.tasks[heartbeats.SWEEP_TASK].apply()

    (run,) = TaskRun.objects.all()
    assert run.task == "games.tasks.sweep_deadlines"
    assert 0 <= heartbeats.run_age(heartbeats.SWEEP_TASK) < 5


@pytest.mark.django_db
def test_a_failed_sweep_and_other_tasks_are_not_recorded(eager) -> None:
    with (
        mock.patch("games.commands.deadlines.deadlines_sweep", side_effect=RuntimeError("broken")),
        pytest.raises(RuntimeError),
    ):
        current_app.tasks[heartbeats.SWEEP_TASK].apply()
    current_app.tasks["notifications.tasks.sweep_outbox"].apply()

    assert not TaskRun.objects.exists()


@pytest.mark.django_db
def test_a_sweep_whose_record_fails_still_succeeds(eager, caplog) -> None:
    with mock.patch.object(heartbeats, "task_run_record", side_effect=OperationalError("gone")):
        result = current_app.tasks[heartbeats.SWEEP_TASK].apply()

    assert result.successful()
    assert "Deadline sweep run not recorded" in caplog.text
