"""What every task of the service shares: which errors are worth a retry, and queueing.

Tasks are queued by name, so a module that asks for work never imports the module that
does it (the tasks import the commands, not the other way round).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, current_app
from django.db import InterfaceError, OperationalError, transaction
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# A database or broker connection that failed for a moment; the task runs again with
# backoff. Tasks are idempotent, so a retry after a partial run changes nothing twice.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, BrokerError, ConnectionError)
# What publishing a message raises when the broker cannot be reached.
BROKER_UNREACHABLE = (BrokerError, RedisError, OSError)


def send_task(task: Task[..., Any] | str, *args: Any) -> bool:
    """Queue ``task(*args)`` now; a broker that does not answer is logged, not raised.

    ``task`` is a task or its registered name. Every task acts on what the database
    already holds, and the periodic sweeps find the work a lost message was for (stuck AI
    turns, undelivered outbox rows, unrecorded results), so the caller's request stands
    even when the broker is down.
    """
    if isinstance(task, str):
        # The registered task, not ``send_task``: it honours eager mode in tests.
        task = current_app.tasks[task]
    try:
        task.delay(*args)
    except BROKER_UNREACHABLE:
        logger.warning("Could not queue %s%r; a periodic sweep will", task.name, args)
        return False
    return True


def send_task_on_commit(task: Task[..., Any] | str, *args: Any) -> None:
    """Queue ``task(*args)`` once the current transaction commits (see ``send_task``)."""
    transaction.on_commit(lambda: send_task(task, *args))
