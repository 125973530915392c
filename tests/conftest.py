"""Test-wide hooks.

Tests marked ``postgres`` need the real server. When the configured database is not
PostgreSQL they are deselected (reported in pytest's "deselected" count, not as skips), so
a plain ``pytest`` on the embedded SQLite default stays green and a PostgreSQL run is never
mistaken for one that passed without them: ``make test`` runs them separately and fails if
that collects nothing.

The suites of the API, the games and the workers (``BOTH_STACKS``) are marked ``stacks``:
the PostgreSQL pass runs them again on PostgreSQL and Redis (``-m "postgres or stacks"``).
Under xdist there, each worker process has its database (pytest-django names it) and its
own Redis database, so one worker's queued tasks and wake-ups never reach another's.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

BOTH_STACKS = ("api", "games", "workers")
_TESTS = Path(__file__).resolve().parent


def _own_redis_database() -> None:
    """The Redis database of this xdist worker: the configured one for the first worker,
    the one below it for the second, and so on."""
    worker, url = os.environ.get("PYTEST_XDIST_WORKER"), settings.REDIS_URL
    if not worker or not url:
        return
    base, number = url.rsplit("/", 1)
    mine = f"{base}/{int(number or 0) - int(worker.removeprefix('gw'))}"
    settings.REDIS_URL = settings.CELERY_BROKER_URL = os.environ["REDIS_URL"] = mine
    settings.CACHES["default"]["LOCATION"] = mine
    from ttr_service import celery_app

    celery_app.conf.broker_url = mine


_own_redis_database()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        parts = Path(str(item.path)).resolve().relative_to(_TESTS).parts
        if parts[0] in BOTH_STACKS:
            item.add_marker(pytest.mark.stacks)
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        return
    kept = [item for item in items if item.get_closest_marker("postgres") is None]
    if len(kept) == len(items):
        return
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept


@pytest.fixture(autouse=True)
def _no_views_kept_in_memory() -> None:
    """Each test starts without the game views an earlier test's requests kept."""
    from games import rendering

    rendering.recent.clear()


@pytest.fixture(autouse=True)
def _light_look_ahead(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard bot plays without its look-ahead, except in tests marked ``look_ahead``,
    where it samples two states instead of four to six.

    The look-ahead only chooses among moves its planner and the legal-move listings offer;
    the many whole games the legality and hidden-data tests play would take many minutes
    with it. The ``look_ahead`` tests check it on its own (legal in every phase, whole games
    to a score sheet that adds up, blind to hidden data); a ``slow`` test plays it at its
    full budget in ``python -m engine simulate``, and ``bench/ai.py`` measures it.
    """
    from engine.bots.hard import HardBot

    for name in ("initial_samples", "keep_samples", "endgame_samples", "block_samples"):
        monkeypatch.setattr(HardBot, name, 2)
    monkeypatch.setattr(HardBot, "plan_samples", 1)
    if request.node.get_closest_marker("look_ahead") is None:
        monkeypatch.setattr(HardBot, "search_trains", -1)
        monkeypatch.setattr(HardBot, "ticket_candidates", 1)
        monkeypatch.setattr(HardBot, "block_threshold", float("inf"))
        monkeypatch.setattr(HardBot, "check_ticket_draws", False)


@pytest.fixture
def redis_server(tmp_path):
    """A private ``redis-server`` on a free port, for tests that stop it or must not touch
    the machine's shared one."""
    from tests.processes import RedisServer, running

    with running(RedisServer(tmp_path)) as server:
        yield server
