"""The context a log line is written in: the request's id and game, the task's name and id.

Kept in context variables, set by the request's middleware (``requests``) and around each
task (``tasks``), and added to every log record by ``ContextFilter``.
"""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Task:
    name: str
    id: str


request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
game_id: ContextVar[int | None] = ContextVar("game_id", default=None)
task: ContextVar[Task | None] = ContextVar("task", default=None)

# A client's X-Request-ID is kept when it is 1 to 128 of these characters (a UUID, a
# proxy's trace id); anything else is replaced by a new id.
_SANE = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")


def request_id_from(sent: str | None) -> str:
    """The client's id if it is sane, else a new one (32 hex digits)."""
    if sent and _SANE.fullmatch(sent):
        return sent
    return uuid.uuid4().hex


class ContextFilter(logging.Filter):
    """Adds ``request_id``, ``game_id``, ``task_name`` and ``task_id`` to every record (None
    when unknown), and ``context_label`` for the text format (``-`` when none is known)."""

    def filter(self, record: logging.LogRecord) -> bool:
        current, rid = task.get(), request_id.get()
        record.request_id = rid
        record.game_id = game_id.get()
        record.task_name = current.name if current else None
        record.task_id = current.id if current else None
        known = [rid, f"{current.name}[{current.id}]" if current else None]
        record.context_label = " ".join(str(k) for k in known if k) or "-"
        return True
