"""What a request's id, log line and metrics cost it.

    .venv/bin/python bench/observability.py [--requests 2000] [--rounds 5]

Sets Django up as a web process of a gunicorn group runs it: DEBUG off, prometheus-client
in multiprocess mode (PROMETHEUS_MULTIPROC_DIR in a temporary folder, so every observation
writes its process's file), LOG_FORMAT=json with the log written to /dev/null. Then times
``GET /api/v1/health/live`` (no database, no cache: the request path itself) through
Django's test client, ``--requests`` at a time, alternating ``--rounds`` rounds with the
whole middleware and with ``RequestContextMiddleware`` left out. Times are this process's
CPU time (``time.process_time``), which another process's load changes less than the
clock's; the machine may still be shared. Also times the pieces alone: one histogram
observation, one counter increment, one JSON request line.

Prints per-request figures in microseconds and, as the last line, one JSON object.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MIDDLEWARE = "ttr_service.observability.requests.RequestContextMiddleware"
PATH = "/api/v1/health/live"


def per_call_us(call, n: int) -> float:
    started = time.process_time()
    for _ in range(n):
        call()
    return (time.process_time() - started) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="ttr-bench-metrics-")
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "ttr_service.settings",
            "PROMETHEUS_MULTIPROC_DIR": folder,
            "DEBUG": "false",
            "SECRET_KEY": "bench-only-" + "k" * 48,
            "SECURE_SSL_REDIRECT": "false",
            "ALLOWED_HOSTS": "testserver",
            "LOG_FORMAT": "json",
            "THROTTLE_ANON_RATE": "1000000/min",
        }
    )
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client
    from django.test.utils import override_settings

    from ttr_service.observability import metrics

    null = open(os.devnull, "w")  # noqa: SIM115  # open for the whole run
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(null)

    without = [m for m in settings.MIDDLEWARE if m != MIDDLEWARE]

    def round_us(middleware: list[str]) -> float:
        with override_settings(MIDDLEWARE=middleware):
            client = Client()
            client.get(PATH)  # loads the middleware chain
            return per_call_us(lambda: client.get(PATH), args.requests)

    on, off = [], []
    for _ in range(args.rounds):
        on.append(round_us(list(settings.MIDDLEWARE)))
        off.append(round_us(without))
    histogram = metrics.REQUEST_SECONDS.labels("GET", "/bench", "200")
    counter = metrics.MOVES_BY_CAUSE["player"]
    log = logging.getLogger("ttr_service.requests")
    pieces = {
        "histogram_observe_us": per_call_us(lambda: histogram.observe(0.01), 100_000),
        "counter_inc_us": per_call_us(counter.inc, 100_000),
        "json_log_line_us": per_call_us(
            lambda: log.info("GET %s %d %.1f ms", "/bench", 200, 1.0, extra={"fields": {}}),
            20_000,
        ),
    }
    result = {
        "requests_per_round": args.requests,
        "rounds": args.rounds,
        "with_us_median": round(statistics.median(on), 1),
        "without_us_median": round(statistics.median(off), 1),
        "added_us_median": round(statistics.median(on) - statistics.median(off), 1),
        "with_us": [round(x, 1) for x in on],
        "without_us": [round(x, 1) for x in off],
        **{name: round(us, 2) for name, us in pieces.items()},
        "load_average": os.getloadavg(),
    }
    print(f"request with the middleware:    {result['with_us_median']} us CPU")
    print(f"request without it:             {result['without_us_median']} us CPU")
    print(f"added:                          {result['added_us_median']} us CPU")
    for name, us in pieces.items():
        print(f"{name:31} {us:.2f}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
