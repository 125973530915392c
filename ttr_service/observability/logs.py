"""One JSON object a line: the log format of the container (``LOG_FORMAT=json``)."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

# Copied from a record when ContextFilter (or a caller's ``extra``) set them.
CONTEXT_FIELDS = ("request_id", "game_id", "task_name", "task_id")


class JsonFormatter(logging.Formatter):
    """``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``message``, the
    context's fields that are known, a record's ``fields`` (``extra={"fields": {...}}``),
    and ``exception`` with the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        line: dict[str, Any] = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in CONTEXT_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)
