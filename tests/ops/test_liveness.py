"""GET /api/v1/health/live: the process answers, and asks nothing of anything else.

Tests without the ``db`` fixture run with database access blocked by pytest-django, so
any query, or even a connection, would fail them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.core.cache import caches
from django.test import Client

from ops import probes
from tests.processes import ROOT, free_port

LIVE = "/api/v1/health/live"
# Every read and write of a cache; a throttle counts with add, incr and get.
CACHE_OPERATIONS = (
    *("add", "get", "set", "incr", "decr", "delete", "touch", "has_key"),
    *("get_many", "set_many", "delete_many", "get_or_set", "clear"),
)


def test_it_answers_200_ok_with_no_query(
    db: None, client: Client, django_assert_num_queries
) -> None:
    with django_assert_num_queries(0):
        response = client.get(LIVE)
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_it_answers_with_database_access_blocked(client: Client) -> None:
    response = client.get(LIVE)
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_it_ignores_a_token_rather_than_look_it_up(client: Client) -> None:
    response = client.get(LIVE, HTTP_AUTHORIZATION="Token not-a-token")
    assert response.status_code == 200


def test_it_never_reads_or_writes_the_cache(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A throttle would count this request in the cache (Redis in production)."""
    cache = caches["default"]

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the liveness probe used the cache")

    for operation in CACHE_OPERATIONS:
        monkeypatch.setattr(cache, operation, refuse)
    response = client.get(LIVE)
    assert response.status_code == 200


def test_it_never_asks_the_broker(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_broker() -> bool:
        raise AssertionError("the liveness probe asked the broker")

    monkeypatch.setattr(probes, "broker_answers", no_broker)
    response = client.get(LIVE)
    assert response.status_code == 200


def test_it_answers_while_the_database_and_redis_are_unreachable() -> None:
    """A process of its own, configured for a PostgreSQL server and a Redis server on
    ports where nothing listens: liveness answers 200 while readiness answers 503."""
    dead = free_port()
    script = (
        "import json, django; django.setup()\n"
        "from django.test import Client\n"
        "client = Client()\n"
        "out = {}\n"
        "for path in ('/api/v1/health/live', '/api/v1/health'):\n"
        "    answer = client.get(path, HTTP_HOST='localhost')\n"
        "    out[path] = [answer.status_code, answer.json()]\n"
        "print(json.dumps(out))\n"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "ttr_service.settings",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{dead}/nowhere",
        "REDIS_URL": f"redis://127.0.0.1:{dead}/0",
    }
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    answers = json.loads(done.stdout.strip().splitlines()[-1])
    assert answers["/api/v1/health/live"] == [200, {"status": "ok"}]
    status, body = answers["/api/v1/health"]
    assert (status, body["database"], body["broker"]) == (503, "error", "error")


def test_it_is_never_cached(client: Client) -> None:
    assert client.get(LIVE)["Cache-Control"] == "no-store"


def test_it_refuses_writes(client: Client) -> None:
    response = client.post(LIVE, "{}", content_type="application/json")
    assert response.status_code == 405


def test_it_has_no_trailing_slash_variant(client: Client) -> None:
    assert client.get(LIVE + "/").status_code == 404
