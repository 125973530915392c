"""The stream hub's Redis subscription over a link that goes silent: a proxy between the
hub and a private redis-server stops passing bytes either way and keeps both connections
open, as a pulled cable or a host's link taken down would (no reset reaches the hub). The
hub must count the subscription as lost within seconds and read the database every
STREAM_POLL_SECONDS, not wait for its heartbeat; once the link passes bytes again it
subscribes again."""

from __future__ import annotations

import asyncio
import contextlib
import time

from ttr_service.streams import wakeups

# The heartbeat is far off: any read of the database after the cut is the fallback's.
HEARTBEAT = 60
POLL_MS = 200
# The hub pings after 1 s of quiet and gives up 2 s later; this allows for a busy machine.
NOTICE_LIMIT = 6
FAMILY = "silentcut"


class SilentProxy:
    """Forwards bytes both ways until ``silent``; then drops them, keeping every connection
    open, and leaves new connections unanswered."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.silent = False
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # Cancelled when the test's loop ends.
        with contextlib.suppress(asyncio.CancelledError):
            while self.silent:  # a SYN that gets no answer: the client's connect times out
                await asyncio.sleep(0.1)
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
            await asyncio.gather(self.pump(reader, up_writer), self.pump(up_reader, writer))

    async def pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await source.read(65536):
                if not self.silent:
                    sink.write(data)
                    await sink.drain()
        sink.close()


async def until(check, limit: float, what: str) -> float:  # type: ignore[no-untyped-def]
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < limit, f"{what} within {limit} s"
        await asyncio.sleep(0.05)
    return time.monotonic() - started


def test_a_silent_cut_is_noticed_and_the_hub_polls_the_database(settings, redis_server):
    probes: list[float] = []

    def probe(keys: list[str]) -> dict[str, float]:
        probes.append(time.monotonic())
        return {key: time.monotonic() for key in keys}  # a new marker every read

    wakeups.register_probe(FAMILY, probe)
    wakeups._publisher = None  # made again for this test's Redis
    settings.STREAM_HEARTBEAT_SECONDS = HEARTBEAT
    settings.STREAM_POLL_SECONDS = POLL_MS / 1000

    async def scenario() -> None:
        proxy = SilentProxy(redis_server.port)
        settings.REDIS_URL = f"redis://127.0.0.1:{await proxy.start()}/0"
        hub = wakeups.hub()
        try:
            with hub.subscribe(f"{FAMILY}:1") as wake:
                await until(lambda: hub.listening, 10, "the subscription")
                # Wake-ups pass while the link is up.
                await asyncio.sleep(1)
                wake.clear()
                await asyncio.to_thread(wakeups.publish, f"{FAMILY}:1")  # the proxy runs here
                assert await wake.wait(2)
                read_before = len(probes)
                await asyncio.sleep(1.5)  # quiet long enough to be pinged, and answered
                assert hub.listening and len(probes) == read_before

                proxy.silent = True
                cut_at = time.monotonic()
                noticed = await until(lambda: not hub.listening, NOTICE_LIMIT, "the cut seen")
                await asyncio.sleep(1)
                after = [at for at in probes if at > cut_at]
                # Read at once on the loss, then every STREAM_POLL_SECONDS.
                assert after and after[0] - cut_at <= NOTICE_LIMIT
                assert len(after) >= 3, after
                wake.clear()
                assert await wake.wait(1)  # the poll's new marker wakes the stream

                proxy.silent = False
                back = await until(lambda: hub.listening, 10, "the subscription again")
                print(f"silent cut noticed in {noticed:.1f} s; subscribed again in {back:.1f} s")
        finally:
            for task in hub._tasks:
                task.cancel()
            await asyncio.gather(*hub._tasks, return_exceptions=True)
            if proxy.server is not None:
                proxy.server.close()
            wakeups._publisher = None

    asyncio.run(scenario())
