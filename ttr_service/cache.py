"""Django's Redis cache, failing open: a Redis outage must not fail API requests.

The cache holds only throttle counters, which are worth less than the requests they
count: while Redis does not answer, reads miss and writes are dropped (each logged), so
throttles let requests through until it is back.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

_UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


def _unreachable(operation: str) -> None:
    logger.warning("Cache %s skipped: Redis does not answer", operation)


class FailOpenRedisCache(RedisCache):
    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        try:
            return super().get(key, default, version)
        except _UNREACHABLE:
            _unreachable("get")
            return default

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        try:
            return super().get_many(keys, version)
        except _UNREACHABLE:
            _unreachable("get_many")
            return {}

    def has_key(self, key: Any, version: Any = None) -> bool:
        try:
            return bool(super().has_key(key, version))
        except _UNREACHABLE:
            _unreachable("has_key")
            return False

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        try:
            super().set(key, value, timeout, version)
        except _UNREACHABLE:
            _unreachable("set")

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        try:
            return bool(super().add(key, value, timeout, version))
        except _UNREACHABLE:
            _unreachable("add")
            return False

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        try:
            return super().set_many(data, timeout, version)
        except _UNREACHABLE:
            _unreachable("set_many")
            return list(data)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        try:
            return bool(super().touch(key, timeout, version))
        except _UNREACHABLE:
            _unreachable("touch")
            return False

    def delete(self, key: Any, version: Any = None) -> bool:
        try:
            return bool(super().delete(key, version))
        except _UNREACHABLE:
            _unreachable("delete")
            return False
