"""Celery's signals, heard in every process that loads the apps.

A worker starts its heartbeat thread when it is ready (and its metrics' exporter when
``METRICS_WORKER_PORT`` names a port) and stops it when it shuts down;
each successful run of the deadline sweep is recorded wherever it runs. The sweep is
known by its task name only, so this app imports nothing of games.

``connect`` is called by ``OpsConfig.ready``.
"""

from __future__ import annotations

import socket
from typing import Any

from celery import Task
from celery.signals import task_postrun, worker_ready, worker_shutdown
from django.conf import settings

from ttr_service.observability import exporter

from . import heartbeats


def on_worker_ready(sender: Any = None, **_: Any) -> None:
    # The sender is the worker's consumer; its hostname is the node name (celery@host).
    heartbeats.start(str(sender.hostname))
    if settings.METRICS.worker_port:
        # With DEBUG on, loopback only, as gunicorn_conf holds the web server to it.
        address = "127.0.0.1" if settings.DEBUG else "0.0.0.0"
        exporter.start(settings.METRICS.worker_port, settings.METRICS.token, address)


def on_worker_shutdown(**_: Any) -> None:
    heartbeats.stop()


def on_task_postrun(task: Task[..., Any] | None = None, state: str | None = None, **_: Any) -> None:
    if task is None or task.name != heartbeats.SWEEP_TASK or state != "SUCCESS":
        return
    hostname = getattr(task.request, "hostname", None) or socket.gethostname()
    heartbeats.sweep_run_record(str(hostname))


def connect() -> None:
    worker_ready.connect(on_worker_ready, weak=False, dispatch_uid="ops.on_worker_ready")
    worker_shutdown.connect(on_worker_shutdown, weak=False, dispatch_uid="ops.on_worker_shutdown")
    task_postrun.connect(on_task_postrun, weak=False, dispatch_uid="ops.on_task_postrun")
