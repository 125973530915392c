"""Heartbeats: written by the workers, read by the health check.

A worker starts a thread when it is ready (``receivers``) that records its node name and
pid every ``WORKER_HEARTBEAT_SECONDS``, and removes its row when it shuts down cleanly; a
worker that is killed leaves a row that only grows older. The thread proves the process
lives, not that it takes tasks: the deadline sweep's record (``task_run_record``, written
after each successful run of ``SWEEP_TASK``) shows that the beat queues it and a worker runs
it.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import DurationField, ExpressionWrapper, F
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Now

from .models import TaskRun, WorkerHeartbeat

logger = logging.getLogger(__name__)

# The beat's deadline sweep, named as Celery names it; the health check reads its age.
SWEEP_TASK = "games.tasks.sweep_deadlines"
# Rows of workers not seen for this long are deleted by the other workers' heartbeats.
FORGET_AFTER = timedelta(days=1)
# The most worker rows the health check lists, the most recently seen first.
LISTED = 20


@dataclass(frozen=True)
class Seen:
    hostname: str
    pid: int
    age_seconds: float


def _since(field: str) -> ExpressionWrapper[CombinedExpression]:
    """The time from ``field`` to now, both on the database's clock."""
    return ExpressionWrapper(Now() - F(field), output_field=DurationField())


def beat(hostname: str, pid: int) -> None:
    """Record that worker ``hostname`` (process ``pid``) is alive now."""
    if WorkerHeartbeat.objects.filter(hostname=hostname, pid=pid).update(seen_at=Now()):
        return
    # The first heartbeat of this process: a new node, or a restart under the same name.
    WorkerHeartbeat.objects.update_or_create(
        hostname=hostname, defaults={"pid": pid, "started_at": Now(), "seen_at": Now()}
    )


def forget(hostname: str, pid: int) -> None:
    """Remove the row of a worker that stops cleanly."""
    WorkerHeartbeat.objects.filter(hostname=hostname, pid=pid).delete()


def forget_old() -> None:
    WorkerHeartbeat.objects.filter(seen_at__lt=Now() - FORGET_AFTER).delete()


def task_run_record(task: str, hostname: str) -> None:
    TaskRun.objects.update_or_create(
        task=task, defaults={"finished_at": Now(), "hostname": hostname}
    )


def workers() -> list[Seen]:
    """The workers that have heartbeats, the most recently seen first."""
    rows = (
        WorkerHeartbeat.objects.annotate(age=_since("seen_at"))
        .order_by("-seen_at")
        .values_list("hostname", "pid", "age")[:LISTED]
    )
    return [Seen(hostname, pid, max(age.total_seconds(), 0.0)) for hostname, pid, age in rows]


def run_age(task: str) -> float | None:
    """Seconds since ``task`` last ran to the end, or None when it never has."""
    age = (
        TaskRun.objects.filter(task=task)
        .annotate(age=_since("finished_at"))
        .values_list("age", flat=True)
        .first()
    )
    return None if age is None else max(age.total_seconds(), 0.0)


class HeartbeatThread(threading.Thread):
    """Writes one worker's heartbeat every ``interval`` seconds until ``stop``."""

    def __init__(self, hostname: str, interval: float) -> None:
        super().__init__(name="ops-heartbeat", daemon=True)
        self.hostname = hostname
        self.pid = os.getpid()
        self.interval = interval
        self._stopped = threading.Event()

    def run(self) -> None:
        try:
            while True:
                self.beat_once()
                if self._stopped.wait(self.interval):
                    return
        finally:
            # The connection belongs to this thread; nobody else would close it.
            connection.close()

    def beat_once(self) -> None:
        try:
            beat(self.hostname, self.pid)
            forget_old()
        except DatabaseError:
            # The database is down or the connection was cut: the row grows older, which
            # is what the health check should see. The next beat gets a fresh connection.
            logger.warning("Worker heartbeat not recorded", exc_info=True)
            connection.close()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopped.set()
        self.join(timeout)


_running: HeartbeatThread | None = None


def start(hostname: str) -> HeartbeatThread:
    """Start this process's heartbeat thread (once)."""
    global _running
    if _running is None or not _running.is_alive():
        _running = HeartbeatThread(hostname, settings.WORKER_HEARTBEAT_SECONDS)
        _running.start()
    return _running


def stop() -> None:
    """Stop this process's heartbeat thread and remove its row."""
    global _running
    running, _running = _running, None
    if running is None:
        return
    running.stop()
    try:
        forget(running.hostname, running.pid)
    except DatabaseError:
        logger.warning("Worker heartbeat not removed at shutdown", exc_info=True)


def sweep_run_record(hostname: str) -> None:
    """Record a successful run of the deadline sweep; a failure to record never fails it."""
    try:
        # A savepoint: inside a caller's transaction (a task run eagerly) a failed write
        # must not break that transaction.
        with transaction.atomic():
            task_run_record(SWEEP_TASK, hostname)
    except DatabaseError:
        logger.warning("Deadline sweep run not recorded", exc_info=True)
