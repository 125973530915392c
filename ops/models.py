"""What the health check reads: when each worker last said it was alive, and when the
deadline sweep last ran. Every time here is the database's clock (``Now()``), so web
processes and workers on different machines compare ages on one clock."""

from __future__ import annotations

from django.db import models


class WorkerHeartbeat(models.Model):
    """One row per Celery worker node, written every ``WORKER_HEARTBEAT_SECONDS``."""

    # Celery's node name, such as celery@host; a restarted worker takes over its row.
    hostname = models.CharField(max_length=255, unique=True)
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.hostname} (pid {self.pid})"


class TaskRun(models.Model):
    """The last successful run of a task the health check watches (the deadline sweep)."""

    task = models.CharField(max_length=255, unique=True)
    finished_at = models.DateTimeField()
    # The worker node that ran it.
    hostname = models.CharField(max_length=255)

    def __str__(self) -> str:
        return self.task


class BeatLease(models.Model):
    """Which Celery beat may send the periodic tasks, until when (``ops.beat_lock``).

    One row per name. A beat holds it while ``expires_at`` (the database's clock) lies
    ahead and renews it well before then; another beat takes it over only once it expired.
    """

    name = models.CharField(max_length=100, unique=True)
    # host:pid:random of the beat that holds it; new for every start of a beat.
    holder = models.CharField(max_length=255)
    acquired_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} held by {self.holder}"
