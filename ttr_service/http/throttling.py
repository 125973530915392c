"""Request throttles that cost one counter increment per request.

DRF's throttles keep every request time of the last window in one cache entry, read and
written whole on each request: a client at 1,200 requests a minute moves a list of 1,200
floats through the cache twice per request. These keep a counter instead. A window opens
at a caller's first request and lasts the rate's period (60 s for ``n/min``); the counter
counts the requests in it, and once it passes the limit the caller gets 429 with
``Retry-After`` the seconds until the window closes. A caller who spreads requests evenly
gets the same limit as before; one who bursts at the end of a window and the start of the
next can send up to twice the limit within one period, the usual price of a counter.

On Redis the counter is one round trip (``SET NX EX``, ``INCR`` and ``PTTL`` in one
pipeline) and fails open like the rest of the cache (``ttr_service.storage.cache``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from django.core.cache import caches
from rest_framework import throttling
from rest_framework.request import Request

from ttr_service.storage.cache import FailOpenRedisCache

if TYPE_CHECKING:
    # Only for the annotations: rest_framework.views imports the throttle classes (this
    # module) while its APIView is being defined.
    from rest_framework.views import APIView


def count_hit(key: str, period: int, now: float) -> tuple[int, float]:
    """Add one to the counter ``key``, whose window opens at its first hit and lasts
    ``period`` seconds; returns its new value and the seconds until the window closes."""
    cache = caches["default"]
    if isinstance(cache, FailOpenRedisCache):
        return cache.count_hit(key, period)
    # The in-process cache: the window's opening time lives beside the counter.
    opened = f"{key}:opened"
    cache.add(opened, now, period)
    cache.add(key, 0, period)
    try:
        hits = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(opened, now, period)
        cache.set(key, 1, period)
        hits = 1
    start = cache.get(opened, now)
    return hits, max(0.0, start + period - now)


class CountingThrottle(throttling.SimpleRateThrottle):
    """``SimpleRateThrottle`` with a counter per window instead of a list of times."""

    _left = 0.0
    # Set by SimpleRateThrottle.__init__ from the rate (its stubs leave them out); None
    # when the throttle has no rate.
    num_requests: int | None
    duration: int | None

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.num_requests is None or self.duration is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        hits, self._left = count_hit(self.key, self.duration, self.timer())
        return hits <= self.num_requests

    def wait(self) -> float | None:
        return float(max(1, math.ceil(self._left)))


class AnonRateThrottle(throttling.AnonRateThrottle, CountingThrottle):
    pass


class UserRateThrottle(throttling.UserRateThrottle, CountingThrottle):
    pass


class ScopedRateThrottle(throttling.ScopedRateThrottle, CountingThrottle):
    pass
