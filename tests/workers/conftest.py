"""A real Celery worker process against the real Redis and the test PostgreSQL database.

These tests are marked ``postgres``: the worker is another process, so it needs a database
server it can share with the test (SQLite in-memory test databases cannot be shared), and
they need ``REDIS_URL`` (``make test`` sets it for the PostgreSQL pass).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connection

from tests.processes import Worker, running, service_env


def database_url() -> str:
    """The test database, for another process."""
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.fixture
def worker_env(transactional_db, tmp_path) -> dict[str, str]:
    if not settings.REDIS_URL:
        pytest.fail("REDIS_URL must point at the Redis server for the worker tests")
    import redis

    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    return service_env(database_url(), settings.REDIS_URL)


@pytest.fixture
def worker(worker_env, tmp_path) -> Iterator[Worker]:
    with running(Worker(worker_env, tmp_path / "worker.log")) as w:
        yield w
