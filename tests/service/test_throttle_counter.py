"""The throttle counter: one increment per request, a window opened by the first hit."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.core.cache import caches
from django.test import override_settings

from tests.processes import RedisServer, running
from ttr_service.http.throttling import count_hit
from ttr_service.storage.cache import FailOpenRedisCache


@pytest.fixture
def redis_cache(tmp_path) -> Iterator[FailOpenRedisCache]:
    with running(RedisServer(tmp_path)) as server:
        settings = {
            "default": {
                "BACKEND": "ttr_service.storage.cache.FailOpenRedisCache",
                "LOCATION": server.url,
                "KEY_PREFIX": "ttr",
            }
        }
        with override_settings(CACHES=settings):
            cache = caches["default"]
            assert isinstance(cache, FailOpenRedisCache)
            yield cache


@pytest.fixture
def local_cache() -> Iterator[None]:
    settings = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    with override_settings(CACHES=settings):
        caches["default"].clear()
        yield


def test_redis_counts_hits_within_the_window_opened_by_the_first(redis_cache) -> None:
    first, left = count_hit("throttle_user_1", 60, time.time())
    assert (first, 59 < left <= 60) == (1, True)
    hits = [count_hit("throttle_user_1", 60, time.time())[0] for _ in range(4)]
    assert hits == [2, 3, 4, 5]
    assert count_hit("throttle_user_2", 60, time.time())[0] == 1
    # The counter is an ordinary cache entry with the window's expiry.
    assert redis_cache.get("throttle_user_1") == 5


def test_redis_opens_a_new_window_once_the_last_has_closed(redis_cache) -> None:
    for _ in range(3):
        count_hit("throttle_short", 1, time.time())
    time.sleep(1.2)
    assert count_hit("throttle_short", 1, time.time())[0] == 1


def test_redis_gives_a_counter_without_expiry_one(redis_cache) -> None:
    redis_cache.set("throttle_old", 7, timeout=None)
    hits, left = count_hit("throttle_old", 60, time.time())
    assert (hits, left) == (8, 60.0)
    key = redis_cache.make_and_validate_key("throttle_old")
    assert 0 < redis_cache._cache.get_client(key).ttl(key) <= 60


def test_the_in_process_cache_counts_the_same_way(local_cache) -> None:
    now = time.time()
    assert count_hit("k", 60, now) == (1, 60.0)
    assert count_hit("k", 60, now + 10) == (2, 50.0)
    assert count_hit("other", 60, now + 10) == (1, 60.0)
