"""What an operator's scraper reads on the bed: each web host's ``GET /metrics`` (from this
process, whose bridge address is private, so the access rule lets it in) and each worker's
exporter (``METRICS_WORKER_PORT``), read from inside the worker's host over its loopback,
so that it answers while the host's links are down. No Django here."""

from __future__ import annotations

import math
import subprocess
from dataclasses import dataclass

import httpx
from prometheus_client.parser import text_string_to_metric_families

from .network import Host

WORKER_PORT = 9100
MOVE_ROUTE = "/api/v1/games/<int:game_id>/actions"
HEALTH_ROUTE = "/api/v1/health"
REQUESTS = "ttr_http_request_duration_seconds"


@dataclass(frozen=True)
class Sample:
    name: str
    labels: dict[str, str]
    value: float


class Scrape(list[Sample]):
    def matching(self, name: str, **labels: str) -> list[Sample]:
        return [
            s
            for s in self
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())
        ]

    def value(self, name: str, **labels: str) -> float:
        """The sum of the samples of ``name`` with these labels (0 without any)."""
        return sum(s.value for s in self.matching(name, **labels))

    def has(self, name: str) -> bool:
        return bool(self.matching(name))

    def buckets(self, name: str, **labels: str) -> dict[float, float]:
        """A histogram's cumulative bucket counts by upper bound, summed over the other
        labels."""
        found: dict[float, float] = {}
        for sample in self.matching(f"{name}_bucket", **labels):
            bound = float(sample.labels["le"])
            found[bound] = found.get(bound, 0.0) + sample.value
        return found


def parse(text: str) -> Scrape:
    return Scrape(
        Sample(s.name, dict(s.labels), float(s.value))
        for family in text_string_to_metric_families(text)
        for s in family.samples
    )


def web(url: str, timeout: float = 15) -> Scrape:
    answer = httpx.get(f"{url}/metrics", timeout=timeout)
    assert answer.status_code == 200, (answer.status_code, answer.text[:200])
    return parse(answer.text)


def worker(host: Host) -> Scrape:
    done = subprocess.run(
        host.command(["curl", "-sSf", "--max-time", "10", f"http://127.0.0.1:{WORKER_PORT}/metrics"]),
        capture_output=True, text=True, timeout=20, check=False,
    )  # fmt: skip
    assert done.returncode == 0, f"{host.name}'s metrics: {done.stderr}"
    return parse(done.stdout)


def ai_moves(scrape: Scrape) -> float:
    return scrape.value("ttr_moves_total", kind="ai")


def requests(scrape: Scrape, route: str, status: str) -> float:
    return scrape.value(f"{REQUESTS}_count", route=route, status=status)


def answered_503(scrape: Scrape) -> float:
    """Requests of any route a web host answered 503."""
    return scrape.value(f"{REQUESTS}_count", status="503")


def quantile(after: dict[float, float], before: dict[float, float], q: float) -> float:
    """The upper bound of the bucket holding the ``q`` quantile of the observations made
    between two scrapes (``math.inf`` past the last finite bucket; 0 without any)."""
    counts = sorted((bound, n - before.get(bound, 0.0)) for bound, n in after.items())
    total = counts[-1][1] if counts else 0.0
    if total <= 0:
        return 0.0
    for bound, cumulative in counts:
        if cumulative >= q * total:
            return bound
    return math.inf
