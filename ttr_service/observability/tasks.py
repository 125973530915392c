"""Celery's side: the request's context carried into the tasks it queues, the task's
context around its run, the worker's logs written as the web's, its metrics' folder.

- ``before_task_publish``: a task queued while a request runs (or a task runs) carries
  the request's id and game in its message's headers (``ttr_request_id``, ``ttr_game_id``).
- ``task_prerun`` / ``task_postrun``: the task's name and id, and the id and game it
  carries, are the context of every log line written meanwhile; the context before the
  task (an eager task runs inside its request) is restored after it.
- ``setup_logging``: with a receiver connected Celery leaves the logging alone, so the
  worker and the beat log through Django's LOGGING (``LOG_FORMAT``) at ``--loglevel``.

``connect`` is called by ttr_service/celery.py, as the Celery app is made; so is
``worker_group_start``, which makes a worker's main process the first of its metrics'
process group (ttr_service/config/observability.py) before its pool forks. It must run
before prometheus-client is imported, and Celery sets Django up (which imports it) before
it sends any signal of a starting worker: hence at the app's import, from the command
line. Nothing here imports prometheus-client.
"""

from __future__ import annotations

import logging.config
from contextvars import Token
from pathlib import Path
from typing import Any

from celery import Task
from celery.signals import (
    before_task_publish,
    setup_logging,
    task_postrun,
    task_prerun,
)
from django.conf import settings

from ttr_service.config import observability
from ttr_service.observability import context

REQUEST_HEADER = "ttr_request_id"
GAME_HEADER = "ttr_game_id"

_Tokens = tuple[Token[str | None], Token[int | None], Token[context.Task | None]]
# The context each running task replaced, by task id.
_before: dict[str, _Tokens] = {}


def on_publish(headers: dict[str, Any] | None = None, **_: Any) -> None:
    if headers is None:
        return
    rid, game = context.request_id.get(), context.game_id.get()
    if rid is not None:
        headers.setdefault(REQUEST_HEADER, rid)
    if game is not None:
        headers.setdefault(GAME_HEADER, game)


def on_prerun(task_id: str | None = None, task: Task[..., Any] | None = None, **_: Any) -> None:
    if task is None or task_id is None:
        return
    rid = getattr(task.request, REQUEST_HEADER, None)
    game = getattr(task.request, GAME_HEADER, None)
    _before[task_id] = (
        context.request_id.set(rid if isinstance(rid, str) else context.request_id.get()),
        context.game_id.set(game if isinstance(game, int) else context.game_id.get()),
        context.task.set(context.Task(task.name, task_id)),
    )


def on_postrun(task_id: str | None = None, **_: Any) -> None:
    tokens = _before.pop(task_id or "", None)
    if tokens is None:
        return
    rid, game, task = tokens
    context.task.reset(task)
    context.game_id.reset(game)
    context.request_id.reset(rid)


def on_setup_logging(loglevel: int | str | None = None, **_: Any) -> None:
    logging.config.dictConfig(settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel)


def worker_group_start(argv: list[str]) -> None:
    """Start the metrics' process group if this process is a Celery worker's main process
    (``celery ... worker ...``)."""
    command = Path(argv[0]) if argv else Path()
    is_celery = command.name == "celery" or command.parts[-2:] == ("celery", "__main__.py")
    if is_celery and "worker" in argv[1:]:
        observability.group_start(settings.METRICS.dir, "worker")


def connect() -> None:
    before_task_publish.connect(on_publish, weak=False, dispatch_uid="observability.publish")
    task_prerun.connect(on_prerun, weak=False, dispatch_uid="observability.prerun")
    task_postrun.connect(on_postrun, weak=False, dispatch_uid="observability.postrun")
    setup_logging.connect(on_setup_logging, weak=False, dispatch_uid="observability.logging")
