"""Wake-ups for event streams: "something new was committed for this topic".

A topic is a family and a key: ``game:12`` (a game's move log or state changed),
``user:7`` (a user has a new notification). A change announces its topic inside its
transaction (``announce``); the announcement goes out only once the transaction commits,
so a stream woken by it always finds the change in the database.

A wake-up carries nothing but the topic: streams read their events from the database
every time, so a lost wake-up delays an event and never drops it.

- With ``REDIS_URL``, announcements are published on Redis pub/sub; each web process
  holds one subscription (``Hub``) and wakes its own streams of that topic, whichever
  process or worker committed the change. A dropped subscription is opened again, and
  every stream of the process then reads the database once, for what was published while
  it was down. A subscription that stops answering (a link cut without a reset) counts as
  dropped within seconds (``Hub._relay``), and the hub asks the database at once. Once a
  heartbeat (and, while the subscription is down, every ``STREAM_POLL_SECONDS``) the hub
  also asks the database whether any watched topic moved on (the families' probes below),
  in case a message was lost on the way.
- Without Redis (the embedded default), a change made in the same process wakes its
  streams at once, and one made in another process (the worker, another web process) by a
  datagram on the hub's Unix socket (``sockets``). The hub also asks the database every
  ``STREAM_POLL_SECONDS``, in one query per family for all of the process's streams, for
  a datagram that was lost.

Each app registers the probe of its family (``register_probe``): given the watched keys,
it returns a marker per key (a version, the latest id) that changes with every change.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar
from urllib.parse import urlsplit

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError, connections, transaction
from redis.backoff import NoBackoff
from redis.retry import Retry

from ttr_service.streams import sockets

logger = logging.getLogger(__name__)

T = TypeVar("T")

Probe = Callable[[list[str]], dict[str, Any]]
_probes: dict[str, Probe] = {}


def register_probe(family: str, probe: Probe) -> None:
    """How the hub finds out, from the database, which topics of ``family`` moved on."""
    _probes[family] = probe


# Started when a topic of the family is woken, before its streams are (``register_ready``).
Ready = Callable[[str], "asyncio.Future[Any] | None"]
_ready: dict[str, Ready] = {}


def register_ready(family: str, ready: Ready) -> None:
    """Wake the streams of a topic of ``family`` once ``ready(topic)`` is done: the read
    they will share (docs/decisions/0332). ``ready`` runs on the hub's loop right after the
    wake-up's tick, and returns a future (None: wake them at once)."""
    _ready[family] = ready


def channel_prefix() -> str:
    """Pub/sub channels are shared by every database of a Redis server: the channels of a
    service on Redis database N are named apart from those on another."""
    database = urlsplit(settings.REDIS_URL or "").path.strip("/") or "0"
    return f"ttr:{database}:wake:"


# ------------------------------------------------------------------------------ publishing
def announce(topic: str) -> None:
    """Wake the streams of ``topic`` once the current transaction commits (at once
    outside one)."""
    transaction.on_commit(lambda: publish(topic))


_publisher: redis.Redis | None = None
_publisher_lock = threading.Lock()


def _redis_publisher() -> redis.Redis:
    global _publisher
    with _publisher_lock:
        if _publisher is None:
            assert settings.REDIS_URL is not None
            # Short timeouts: publishing happens after a commit, in the request that made
            # it; a Redis outage must not hold that request up (the streams' poll covers).
            _publisher = redis.Redis.from_url(
                settings.REDIS_URL,
                socket_timeout=0.5,
                socket_connect_timeout=0.5,
                retry=Retry(NoBackoff(), 0),
            )
        return _publisher


def publish(topic: str) -> None:
    if settings.REDIS_URL:
        try:
            _redis_publisher().publish(channel_prefix() + topic, b"")
        except (redis.RedisError, OSError):
            logger.warning("Could not announce %s; streams will find it by polling", topic)
        return
    for hub in list(_hubs.values()):
        hub.wake_threadsafe(topic)
    sockets.send(topic)


# ------------------------------------------------------------------------------ database
_db_threads: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    global _db_threads
    if _db_threads is None:
        _db_threads = ThreadPoolExecutor(settings.STREAM_DB_THREADS, thread_name_prefix="stream-db")
    return _db_threads


def _with_fresh_connection(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, once more on a new connection if this thread's one was dropped."""
    try:
        return fn(*args)
    except (OperationalError, InterfaceError):
        connections.close_all()  # this thread's connections only
        return fn(*args)


async def read_db(fn: Callable[..., T], *args: Any) -> T:
    """Run a read of ``fn`` on the streams' own few threads (``STREAM_DB_THREADS``), each
    keeping its connection: thousands of streams share them instead of holding a thread
    and a connection each."""
    call = sync_to_async(_with_fresh_connection, thread_sensitive=False, executor=_executor())
    return await call(fn, *args)


# ------------------------------------------------------------------------------ the hub
class Subscription:
    """A stream's wake-up: set when its topic was announced (or anything may have been
    missed), cleared by the stream before it reads. Waiting on it is one future and one
    timer, as cheap as a wake-up can be: a move of a watched game wakes every stream of it."""

    def __init__(self, hub: Hub, topic: str) -> None:
        self.hub = hub
        self.topic = topic
        self.woken = False
        self._waiter: asyncio.Future[None] | None = None
        self.subscribed_at = hub.tick()

    def set(self) -> None:
        self.woken = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def clear(self) -> int:
        """Clear the wake-up; returns the hub's ``clock`` from which on a read finds every
        change this stream was woken for: the topic's last wake-up (each came after its
        change committed), or the subscription if none came since. Streams woken by one
        announcement thus share one read, however long the loop takes to get to each."""
        self.woken = False
        return max(self.subscribed_at, self.hub.woken_at.get(self.topic, 0))

    async def wait(self, timeout: float) -> bool:
        """Whether a wake-up came within ``timeout`` seconds."""
        if self.woken:
            return True
        loop = self.hub.loop
        waiter = self._waiter = loop.create_future()
        timer = loop.call_later(timeout, _time_up, waiter)
        try:
            await waiter
        finally:
            timer.cancel()
            self._waiter = None
        return self.woken


def _time_up(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


# A subscription quiet this long is asked whether Redis still answers, and lost without an
# answer within the next (a silent cut is noticed within their sum and a poll's read).
PING_AFTER_SECONDS = 1.0
PONG_WITHIN_SECONDS = 2.0


class Hub:
    """The wake-ups of one event loop (one web process): its subscription to Redis, or its
    database poll, and the streams waiting on each topic."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.waiting: dict[str, set[Subscription]] = defaultdict(set)
        # A count of the hub's wake-ups and subscriptions, which orders reads after them
        # (``tick``), and its value at each watched topic's last wake-up.
        self.clock = 0
        self.woken_at: dict[str, int] = {}
        self.markers: dict[str, Any] = {}
        # True while the Redis subscription is up; a stream may then rest between wake-ups.
        self.listening = False
        # Set when the subscription is lost: the poll reads at once instead of at the end
        # of its heartbeat.
        self.dropped = asyncio.Event()
        self.reconnects = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._inbox: sockets.Inbox | None = None

    @contextlib.contextmanager
    def subscribe(self, topic: str) -> Iterator[Subscription]:
        self._start()
        subscription = Subscription(self, topic)
        self.waiting[topic].add(subscription)
        try:
            yield subscription
        finally:
            watchers = self.waiting.get(topic)
            if watchers is not None:
                watchers.discard(subscription)
                if not watchers:
                    del self.waiting[topic]
                    self.markers.pop(topic, None)
                    self.woken_at.pop(topic, None)

    def wake(self, topic: str) -> None:
        watchers = self.waiting.get(topic)
        if not watchers:
            return
        self.woken_at[topic] = self.tick()
        ready = _ready.get(topic.partition(":")[0])
        try:
            pending = ready(topic) if ready is not None else None
        except Exception:
            logger.exception("Could not prepare the wake-up of %s", topic)
            pending = None
        if pending is not None and not pending.done():
            pending.add_done_callback(lambda _: self._set(topic))
            return
        self._set(topic)

    def _set(self, topic: str) -> None:
        for subscription in self.waiting.get(topic, ()):
            subscription.set()

    def wake_all(self) -> None:
        for topic in list(self.waiting):
            self.wake(topic)

    def close(self) -> None:
        """Let go of the socket (the hub's loop is closed)."""
        if self._inbox is not None:
            self._inbox.close()
            self._inbox = None

    def tick(self) -> int:
        """Move the clock on: a read started from now on has a stamp (``clock``) of at
        least the value returned."""
        self.clock += 1
        return self.clock

    def wake_threadsafe(self, topic: str) -> None:
        with contextlib.suppress(RuntimeError):  # the loop was closed
            self.loop.call_soon_threadsafe(self.wake, topic)

    def _start(self) -> None:
        if self._tasks:
            return
        # The hub outlives the stream that starts it: its tasks run in an empty context,
        # not in a copy of that stream's request (its ThreadSensitiveContext, exited once
        # the request is over, its language, its urlconf).
        self._tasks.append(self.loop.create_task(self._poll(), context=contextvars.Context()))
        if settings.REDIS_URL:
            self._tasks.append(self.loop.create_task(self._listen(), context=contextvars.Context()))
            return
        try:
            self._inbox = sockets.Inbox(self.loop, self.wake)
        except OSError:
            logger.warning("No wake-up socket; streams find other processes' changes by polling")

    async def _listen(self) -> None:
        delay = 0.1
        prefix = channel_prefix()
        while True:
            client = redis.asyncio.Redis.from_url(
                settings.REDIS_URL or "", socket_connect_timeout=2, health_check_interval=5
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(prefix + "*")
                self.listening = True
                if self.reconnects:
                    logger.info("Stream wake-ups resubscribed to Redis")
                # Whatever was announced while there was no subscription is in the
                # database: every stream reads once.
                self.wake_all()
                delay = 0.1
                await self._relay(pubsub, prefix)
            except asyncio.CancelledError:
                raise
            except (redis.RedisError, OSError) as error:
                logger.warning("Stream wake-ups lost Redis (%s); reconnecting", error)
            finally:
                if self.listening:
                    self.listening = False
                    self.dropped.set()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                    await client.aclose()
            self.reconnects += 1
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    async def _relay(self, pubsub: redis.asyncio.client.PubSub, prefix: str) -> None:
        """Wake the streams of each topic announced, until the subscription fails. A link
        cut without a reset (a pulled cable, a host's link down) fails nothing by itself:
        after PING_AFTER_SECONDS without a message the hub pings Redis on the subscription
        and, with no answer within PONG_WITHIN_SECONDS, counts the subscription as lost
        (the streams then read the database every STREAM_POLL_SECONDS)."""
        clock = self.loop.time
        heard, asked = clock(), 0.0
        while True:
            message = await pubsub.get_message(timeout=PONG_WITHIN_SECONDS / 4)
            now = clock()
            if message is not None:  # a wake-up or the answer to a ping
                heard, asked = now, 0.0
                if message["type"] == "pmessage":
                    self.wake(message["channel"].decode()[len(prefix) :])
            elif asked and now - asked > PONG_WITHIN_SECONDS:
                raise redis.ConnectionError(f"no answer to a ping in {PONG_WITHIN_SECONDS} s")
            elif not asked and now - heard >= PING_AFTER_SECONDS:
                await pubsub.ping()
                asked = now

    async def _poll(self) -> None:
        while True:
            listening = self.listening
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self.dropped.wait(),
                    settings.STREAM_HEARTBEAT_SECONDS
                    if listening
                    else settings.STREAM_POLL_SECONDS,
                )
            self.dropped.clear()
            try:
                await self._probe_all()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("Stream poll failed; trying again")

    async def _probe_all(self) -> None:
        by_family: dict[str, list[str]] = defaultdict(list)
        for topic in list(self.waiting):
            family, _, key = topic.partition(":")
            by_family[family].append(key)
        for family, keys in by_family.items():
            probe = _probes.get(family)
            if probe is None:
                continue
            markers = await read_db(probe, keys)
            for key in keys:
                topic = f"{family}:{key}"
                marker = markers.get(key)
                # A topic seen for the first time wakes too: its stream may have read
                # just before the change that set this marker.
                if topic not in self.markers or self.markers[topic] != marker:
                    self.markers[topic] = marker
                    self.wake(topic)


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub() -> Hub:
    """The hub of the running event loop."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        for old in [old for old in _hubs if old.is_closed()]:
            _hubs.pop(old).close()
        found = _hubs[loop] = Hub(loop)
    return found
