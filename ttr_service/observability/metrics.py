"""The service's Prometheus metrics, and what a scrape answers.

Metrics counted as things happen live here; the apps record them. Metrics read at the
scrape (the queue's depth, the outbox's backlog, the beat lease's holder) are collectors an
app adds with ``scrape_also`` from its ``AppConfig.ready()``, read by ``GET /metrics`` only.

Under a process group (``ttr_service/config/observability.py``) prometheus-client keeps
each process's values in files of the group's folder and a scrape sums them, so any one
gunicorn worker answers for all of them; a process outside a group answers for itself.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator
from typing import Any

from celery import current_app
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from ttr_service.config.observability import MULTIPROC_VARIABLE

logger = logging.getLogger(__name__)

# Whether prometheus-client keeps this process's values in its group's files: it decided
# when it was imported, just above.
MULTIPROCESS = bool(os.environ.get(MULTIPROC_VARIABLE))

REQUEST_SECONDS = Histogram(
    "ttr_http_request_duration_seconds",
    "Time from a request's arrival at Django to its answer, by method, route pattern and "
    "status (an event stream's until its answer starts).",
    ["method", "route", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
MOVES = Counter(
    "ttr_moves",
    "Moves committed, by who made them: person, ai, or timeout (a missed deadline's).",
    ["kind"],
)
AI_DECISION_SECONDS = Histogram(
    "ttr_ai_decision_seconds",
    "Time one bot took to choose one action, by AI level.",
    ["level"],
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
EVENT_STREAMS = Gauge(
    "ttr_event_streams_open",
    "Event streams open in this web process.",
    multiprocess_mode="liveall",
)

# Moves' causes (games.models.MoveCause) as the kinds counted; made at once, so each kind
# shows from the first scrape on.
MOVE_KINDS = {"player": "person", "ai": "ai", "timeout": "timeout"}
MOVES_BY_CAUSE = {cause: MOVES.labels(kind) for cause, kind in MOVE_KINDS.items()}

_scraped: list[Collector] = []


def scrape_also(collector: Collector) -> None:
    """Read ``collector`` at every ``GET /metrics``; one that fails is logged and left out."""
    _scraped.append(collector)


class _Guarded:
    def __init__(self, collector: Collector) -> None:
        self.collector = collector

    def collect(self) -> Iterable[Metric]:
        try:
            return list(self.collector.collect())
        except Exception:
            logger.warning("A metric read at the scrape failed", exc_info=True)
            return []


class _ThisProcess:
    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def registry(with_scraped: bool) -> CollectorRegistry:
    """The metrics a scrape answers: the group's sums (or this process's own), and with
    ``with_scraped`` those read now."""
    answer = CollectorRegistry(auto_describe=False)
    if MULTIPROCESS:
        MultiProcessCollector(answer)  # type: ignore[no-untyped-call]  # unannotated upstream
    else:
        answer.register(_ThisProcess())
    if with_scraped:
        for collector in _scraped:
            answer.register(_Guarded(collector))
    return answer


def exposition(with_scraped: bool = True) -> tuple[bytes, str]:
    """The Prometheus text format and its content type."""
    return generate_latest(registry(with_scraped)), CONTENT_TYPE_LATEST


class QueueDepth:
    """``ttr_celery_queue_depth``: messages waiting in the Celery queue (Redis lists, or
    the embedded broker's files), asked of the broker at the scrape."""

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "ttr_celery_queue_depth",
            "Messages waiting in a Celery queue, read from the broker at the scrape.",
            labels=["queue"],
        )
        queue = current_app.conf.task_default_queue
        # Bounded: a scrape must answer (without this family) within a few seconds while
        # the broker is unreachable, not after kombu's retries.
        bounded = {"max_retries": 1, "socket_timeout": 1, "socket_connect_timeout": 1}
        with current_app.connection_for_read(
            connect_timeout=1, transport_options=bounded
        ) as connection:
            channel: Any = connection.default_channel  # kombu's virtual channel
            declared = channel.queue_declare(queue=queue)
            family.add_metric([queue], float(declared.message_count))
        yield family


scrape_also(QueueDepth())
