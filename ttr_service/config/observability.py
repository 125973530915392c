"""What an operator watches: the log format, the metrics' folder, token and worker port.

Read from the environment (docs/operations.md, "Metrics and logs"):

- ``LOG_FORMAT``: ``json`` (one JSON object a line) or ``text``; ``json`` when DEBUG is off
  (the container), ``text`` when it is on (a checkout).
- ``METRICS_DIR``: where the processes of one group (gunicorn's workers, a Celery worker's
  pool) keep the metric files prometheus-client sums at a scrape; ``var/metrics``.
- ``METRICS_TOKEN``: when set, ``GET /metrics`` and the workers' exporters answer only a
  request with ``Authorization: Bearer <token>``; when not, only a request from a loopback
  or private address that no proxy forwarded.
- ``METRICS_WORKER_PORT``: the port each Celery worker serves its metrics on; 0 (the
  default) serves none.

A process group's folder is ``<METRICS_DIR>/<role>-<pid of its first process>``, made
empty by that first process (``group_start``: gunicorn's master, a worker's main process)
before it forks the others, which find it in ``PROMETHEUS_MULTIPROC_DIR``. Folders of
groups whose first process is gone are removed then too. A process outside any group (the
development server, a test run, a management command) keeps its metrics in memory.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from ttr_service.config import env

FORMATS = ("json", "text")
MULTIPROC_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
# The folder of one process group: <role>-<pid>.
_ROLES = ("web", "worker")


@dataclass(frozen=True)
class Metrics:
    dir: Path
    token: str | None
    worker_port: int


def metrics_settings(var_dir: Path) -> Metrics:
    folder = env.get_str("METRICS_DIR")
    return Metrics(
        dir=Path(folder) if folder else var_dir / "metrics",
        token=env.get_str("METRICS_TOKEN"),
        worker_port=env.get_int("METRICS_WORKER_PORT", default=0),
    )


def log_format(debug: bool) -> str:
    value = (env.get_str("LOG_FORMAT") or ("text" if debug else "json")).lower()
    if value not in FORMATS:
        raise ImproperlyConfigured(
            f"Environment variable LOG_FORMAT: expected json or text; got {value!r}"
        )
    return value


def logging_settings(debug: bool) -> dict[str, Any]:
    """Django's LOGGING: every record goes to standard error through the root logger, with
    the request's and task's context (ttr_service/observability/context.py)."""
    formatter = log_format(debug)
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "ttr_service.observability.context.ContextFilter"}},
        "formatters": {
            "json": {"()": "ttr_service.observability.logs.JsonFormatter"},
            "text": {
                "format": "%(asctime)s %(levelname)s %(name)s [%(context_label)s] %(message)s"
            },
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": formatter,
                "filters": ["context"],
            }
        },
        "root": {"handlers": ["stderr"], "level": "INFO"},
        # Django's own console handler would print its records a second time.
        "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
    }


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def group_start(base: Path, role: str) -> Path:
    """Make this process the first of a group whose metrics are summed: an empty folder of
    its own, named in ``PROMETHEUS_MULTIPROC_DIR`` for the processes it starts. Call it
    before prometheus-client is imported (it reads the variable once, at its import)."""
    assert role in _ROLES
    base.mkdir(parents=True, exist_ok=True)
    for folder in base.iterdir():
        prefix, _, pid = folder.name.rpartition("-")
        if prefix in _ROLES and pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)
    mine = base / f"{role}-{os.getpid()}"
    shutil.rmtree(mine, ignore_errors=True)
    mine.mkdir()
    os.environ[MULTIPROC_VARIABLE] = str(mine)
    return mine


def process_gone(pid: int) -> None:
    """Forget the per-process gauges of a group's process that exited (prometheus-client's
    ``live…`` gauge files are named ``gauge_live<mode>_<pid>.db``); its counters and
    histograms stay in the sums."""
    folder = os.environ.get(MULTIPROC_VARIABLE)
    if folder:
        for file in Path(folder).glob(f"gauge_live*_{pid}.db"):
            file.unlink(missing_ok=True)
