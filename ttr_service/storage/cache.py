"""Django's Redis cache, failing open: a Redis outage must not fail API requests.

The cache holds throttle counters and rendered game views, both worth less than the
requests they serve: while Redis does not answer, reads miss and writes are dropped (each
logged), so throttles let requests through and views are rendered anew until it is back.

One Redis client (and its connection pool) serves the whole process. Django keeps a cache
object per thread, and under ASGI per request (its handler is a context-local): with a
pool per cache object, every request of an ASGI server opened a new connection to Redis,
which cost more than the rest of a cached game view (docs/decisions/0202).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from functools import cached_property
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

_UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


def _unreachable(operation: str) -> None:
    logger.warning("Cache %s skipped: Redis does not answer", operation)


_clients: dict[str, RedisCacheClient] = {}
_clients_lock = threading.Lock()


class FailOpenRedisCache(RedisCache):
    # Set by RedisCache.__init__; its stubs leave them out.
    _servers: list[str]
    _options: dict[str, Any]
    _class: type[RedisCacheClient]

    @cached_property
    def _cache(self) -> RedisCacheClient:
        """The process's client for this cache's servers and options (thread-safe: its
        pool hands each thread a connection of its own)."""
        key = repr((self._servers, sorted(self._options.items())))
        with _clients_lock:
            if key not in _clients:
                _clients[key] = self._class(self._servers, **self._options)
            return _clients[key]

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except _UNREACHABLE:
            _unreachable("get")
            return default

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        try:
            return super().get_many(keys, version)
        except _UNREACHABLE:
            _unreachable("get_many")
            return {}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        try:
            return bool(super().has_key(key, version))
        except _UNREACHABLE:
            _unreachable("has_key")
            return False

    def set(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        try:
            super().set(key, value, timeout, version)
        except _UNREACHABLE:
            _unreachable("set")

    def add(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        try:
            return bool(super().add(key, value, timeout, version))
        except _UNREACHABLE:
            _unreachable("add")
            return False

    def set_many(
        self,
        data: dict[Any, Any],
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> list[Any]:
        try:
            return super().set_many(data, timeout, version)
        except _UNREACHABLE:
            _unreachable("set_many")
            return list(data)

    def touch(
        self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        try:
            return bool(super().touch(key, timeout, version))
        except _UNREACHABLE:
            _unreachable("touch")
            return False

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return bool(super().delete(key, version))
        except _UNREACHABLE:
            _unreachable("delete")
            return False

    def count_hit(self, key: str, period: int) -> tuple[int, float]:
        """One more hit on a counter whose window opens at its first hit and lasts
        ``period`` seconds, in one round trip: its new value and the seconds left. While
        Redis does not answer: (0, 0.0), so a throttle lets the request through."""
        full = self.make_and_validate_key(key)
        try:
            client = self._cache.get_client(full, write=True)
            pipe = client.pipeline(transaction=False)
            pipe.set(full, 0, ex=period, nx=True)
            pipe.incr(full)
            pipe.pttl(full)
            _, hits, left_ms = pipe.execute()
            if left_ms < 0:  # a counter without an expiry (not made here): give it one
                client.expire(full, period)
                left_ms = period * 1000
        except _UNREACHABLE:
            _unreachable("count_hit")
            return 0, 0.0
        return int(hits), left_ms / 1000
