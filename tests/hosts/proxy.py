"""A TCP proxy that can make a link slow and unreliable: the hosts bed's stand-in for a bad
network between a web host and the database (the kernel here has no ``netem``).

    python -m tests.hosts.proxy LISTEN_HOST:PORT TARGET_HOST:PORT --delay 0.3 --drop 0.05

It forwards every connection as it is until it gets SIGUSR1, and again after SIGUSR2.
Between the two (the fault):

- every chunk of bytes from the client reaches the target ``--delay`` seconds after it
  arrived, in order (a round trip takes that much longer, as ``netem delay`` on the
  client's link would make it);
- each new connection is dropped with probability ``--drop`` (closed before anything is
  forwarded), and every second each open connection is cut with that probability.

It prints one line per change and, when it stops (SIGTERM), how many connections it saw,
dropped and cut. Run it inside a namespace with ``ip netns exec``. No Django.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import signal
import time


class Proxy:
    def __init__(self, target: tuple[str, int], delay: float, drop: float) -> None:
        self.target = target
        self.delay = delay
        self.drop = drop
        self.faulty = False
        self.links: set[asyncio.Task[None]] = set()
        self.seen = self.dropped = self.cut = 0

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.seen += 1
        if self.faulty and random.random() < self.drop:
            self.dropped += 1
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        task = asyncio.current_task()
        assert task is not None
        self.links.add(task)
        try:
            await asyncio.gather(
                self.pipe(reader, up_writer, slowed=True), self.pipe(up_reader, writer)
            )
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self.links.discard(task)
            for end in (writer, up_writer):
                end.transport.abort()

    async def pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, slowed: bool = False
    ) -> None:
        """Copy ``reader`` to ``writer``; while faulty, if ``slowed``, each chunk leaves
        ``delay`` after it came (a queue keeps the order and lets chunks overlap in flight)."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def send() -> None:
            while True:
                due, chunk = await queue.get()
                if not chunk:
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(chunk)
                await writer.drain()

        sender = asyncio.create_task(send())
        try:
            while True:
                chunk = await reader.read(65536)
                delay = self.delay if self.faulty and slowed else 0.0
                queue.put_nowait((time.monotonic() + delay, chunk))
                if not chunk:
                    break
            await sender
        finally:
            sender.cancel()

    async def cutter(self) -> None:
        while True:
            await asyncio.sleep(1)
            if not self.faulty:
                continue
            for task in list(self.links):
                if random.random() < self.drop:
                    self.cut += 1
                    task.cancel()

    def switch(self, faulty: bool) -> None:
        self.faulty = faulty
        print(f"fault {'on' if faulty else 'off'}", flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("listen")
    parser.add_argument("target")
    parser.add_argument("--delay", type=float, default=0.3)
    parser.add_argument("--drop", type=float, default=0.05)
    args = parser.parse_args()
    host, port = args.listen.rsplit(":", 1)
    target_host, target_port = args.target.rsplit(":", 1)
    proxy = Proxy((target_host, int(target_port)), args.delay, args.drop)
    server = await asyncio.start_server(proxy.serve, host, int(port))
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGUSR1, proxy.switch, True)
    loop.add_signal_handler(signal.SIGUSR2, proxy.switch, False)
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    cutter = asyncio.create_task(proxy.cutter())
    print(f"proxy {args.listen} -> {args.target} ready", flush=True)
    async with server:
        await stop.wait()
    cutter.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await cutter
    print(f"connections {proxy.seen}, dropped {proxy.dropped}, cut {proxy.cut}", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
