"""Test-wide hooks.

Tests marked ``postgres`` need the real server. When the configured database is not
PostgreSQL they are deselected (reported in pytest's "deselected" count, not as skips), so
a plain ``pytest`` on the embedded SQLite default stays green and a PostgreSQL run is never
mistaken for one that passed without them: ``make test`` runs ``-m postgres`` separately and
fails if that collects nothing.
"""

from __future__ import annotations

import pytest
from django.conf import settings


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
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
    from games import rendered

    rendered.recent.clear()
