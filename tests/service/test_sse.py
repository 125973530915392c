"""The event-stream plumbing on its own: the wire format, the resume cursor, the loop's
wake-ups, heartbeats and retries (ttr_service/streams/sse.py, ttr_service/streams/wakeups.py)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import SyncToAsync, ThreadSensitiveContext
from rest_framework.test import APIRequestFactory

from ttr_service.http.problems import ServiceError
from ttr_service.streams import sse, wakeups
from ttr_service.streams.sse import Batch, Cursor, Event


def _request(query: str = "", **headers: str) -> Any:
    from rest_framework.request import Request

    return Request(APIRequestFactory().get(f"/x{query}", **headers))


def test_an_event_is_its_name_id_and_one_line_of_json() -> None:
    event = Event("move", {"number": 3, "text": "a\nb"}, id="3")

    assert event.wire == b'event: move\nid: 3\ndata: {"number":3,"text":"a\\nb"}\n\n'
    assert Event("game", {"version": 1}).wire == b'event: game\ndata: {"version":1}\n\n'


@pytest.mark.parametrize(
    ("query", "headers", "cursor"),
    [
        ("", {}, None),
        ("?after=0", {}, Cursor(0, False)),
        ("?after=41", {}, Cursor(41, False)),
        ("?after=5", {"HTTP_LAST_EVENT_ID": "7"}, Cursor(7, False)),
        ("", {"HTTP_LAST_EVENT_ID": "12-end"}, Cursor(12, True)),
        ("?after=3", {"HTTP_LAST_EVENT_ID": " "}, Cursor(3, False)),
        ("", {"HTTP_LAST_EVENT_ID": "41.17.3f9a01c2"}, Cursor(41, False, 17, "3f9a01c2")),
        ("", {"HTTP_LAST_EVENT_ID": "41.0.00000000-end"}, Cursor(41, True, 0, "00000000")),
    ],
)
def test_the_last_event_id_wins_over_after(
    query: str, headers: dict[str, str], cursor: Any
) -> None:
    assert sse.resume_cursor(_request(query, **headers)) == cursor


@pytest.mark.parametrize(
    ("query", "headers"),
    [
        ("?after=-1", {}),
        ("?after=1.5", {}),
        ("?after=x", {}),
        ("?after=" + "9" * 19, {}),
        ("", {"HTTP_LAST_EVENT_ID": "abc"}),
        ("", {"HTTP_LAST_EVENT_ID": "-end"}),
        # A restore epoch is eight lowercase hex digits, after a move and a message.
        ("", {"HTTP_LAST_EVENT_ID": "41.17.3f9a01c"}),
        ("", {"HTTP_LAST_EVENT_ID": "41.17.3F9A01C2"}),
        ("", {"HTTP_LAST_EVENT_ID": "41.17.3f9a01c2x"}),
        ("", {"HTTP_LAST_EVENT_ID": "41.17.3f9a01c2.1"}),
        ("", {"HTTP_LAST_EVENT_ID": "41..3f9a01c2"}),
    ],
)
def test_a_cursor_that_is_no_whole_number_is_bad(query: str, headers: dict[str, str]) -> None:
    with pytest.raises(ServiceError) as raised:
        sse.resume_cursor(_request(query, **headers))
    assert str(raised.value.problem_code) == "BAD_CURSOR"


async def _collect(stream: Any, until: Any, timeout: float = 5) -> list[bytes]:
    got: list[bytes] = []

    async def run() -> None:
        async for chunk in stream:
            got.append(chunk)
            if until(got):
                return

    await asyncio.wait_for(run(), timeout)
    await stream.aclose()
    return got


def test_a_stream_reads_again_when_woken_and_beats_while_idle(settings: Any) -> None:
    settings.REDIS_URL = None
    settings.STREAM_HEARTBEAT_SECONDS = 0.2
    reads: list[float] = []

    async def read(since: int) -> Batch:
        reads.append(since)
        n = len(reads)
        return Batch(events=[Event("tick", {"n": n}, id=str(n))], done=n == 3)

    async def scenario() -> list[bytes]:
        stream = sse.event_stream("test:1", read)
        hub = wakeups.hub()

        async def wake_twice() -> None:
            await asyncio.sleep(0.3)  # one heartbeat first
            hub.wake("test:1")
            await asyncio.sleep(0.1)
            hub.wake("test:1")

        waker = asyncio.ensure_future(wake_twice())
        chunks = await _collect(stream, lambda got: b"id: 3" in got[-1])
        await waker
        return chunks

    chunks = asyncio.run(scenario())
    text = b"".join(chunks).decode()
    assert text.startswith("retry: 2000\n")
    assert text.index("id: 1") < text.index(": heartbeat") < text.index("id: 2")
    assert text.count("event: tick") == 3
    assert reads == sorted(reads)


def test_a_familys_streams_wake_once_what_their_wake_up_prepares_is_done(settings: Any) -> None:
    settings.REDIS_URL = None
    prepared: list[str] = []

    async def scenario() -> list[bool]:
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def prepare(topic: str) -> asyncio.Future[None]:
            prepared.append(topic)
            return ready

        wakeups.register_ready("ready", prepare)
        hub = wakeups.hub()
        seen = []
        with hub.subscribe("ready:1") as wake, hub.subscribe("other:1") as other:
            hub.wake("ready:1")
            hub.wake("other:1")  # a family without a preparation wakes at once
            seen += [wake.woken, other.woken]
            await asyncio.sleep(0.01)
            seen.append(wake.woken)
            ready.set_result(None)
            await asyncio.sleep(0)  # the future's callbacks run on the loop
            seen.append(wake.woken)
        for task in hub._tasks:
            task.cancel()
        return seen

    assert asyncio.run(scenario()) == [False, True, False, True]
    assert prepared == ["ready:1"]


def test_a_failed_read_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sse, "READ_ATTEMPTS", 3)
    calls = 0

    async def flaky(since: int) -> Batch:
        nonlocal calls
        calls += 1
        if calls < 3:
            raise ConnectionError("database restarting")
        return Batch(done=True)

    batch = asyncio.run(sse._read_retrying(flaky, 0))

    assert batch.done and calls == 3


def test_a_topic_polled_from_the_database_wakes_its_streams_when_its_marker_moves(
    settings: Any,
) -> None:
    settings.REDIS_URL = None
    markers = {"1": 5}
    wakeups.register_probe("probe", lambda keys: {k: markers.get(k) for k in keys})

    async def scenario() -> list[bool]:
        hub = wakeups.hub()
        seen = []
        with hub.subscribe("probe:1") as wake:
            await hub._probe_all()  # first sight: a wake, in case it just moved
            seen.append(wake.woken)
            wake.clear()
            await hub._probe_all()
            seen.append(wake.woken)
            markers["1"] = 6
            await hub._probe_all()
            seen.append(wake.woken)
        for task in hub._tasks:
            task.cancel()
        return seen

    assert asyncio.run(scenario()) == [True, False, True]


def test_the_hubs_poll_keeps_nothing_of_the_request_that_started_it(settings: Any) -> None:
    settings.REDIS_URL = None
    settings.STREAM_POLL_SECONDS = 0.05
    seen: list[object] = []

    def probe(keys: list[str]) -> dict[str, Any]:
        seen.append(SyncToAsync.thread_sensitive_context.get(None))
        return {k: 1 for k in keys}

    wakeups.register_probe("context", probe)

    async def scenario() -> bool:
        hub = wakeups.hub()
        with ThreadPoolExecutor(1) as executor:
            # As the service runs a request: the first stream starts the hub's poll.
            async with ThreadSensitiveContext(executor=executor):
                with hub.subscribe("context:1"):
                    pass
        with hub.subscribe("context:2") as wake:
            woken = await wake.wait(5)
        for task in hub._tasks:
            task.cancel()
        return woken

    assert asyncio.run(scenario())
    assert seen and seen[0] is None, seen
