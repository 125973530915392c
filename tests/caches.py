"""The caches a test runs on: in-process ones of its own, both the default one (DRF's
throttle counters, the posting rates) and ``presence`` (who is at a table), cleared before
and after it, so no test starts with another's counts or marks."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache import caches

NAMES = ("default", "presence")


@contextmanager
def fresh_caches(settings: Any, place: str) -> Iterator[None]:
    settings.CACHES = {
        name: {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"{place}-{name}",
        }
        for name in NAMES
    }
    for name in NAMES:
        caches[name].clear()
    yield
    for name in NAMES:
        caches[name].clear()
