"""Wake-ups between processes without Redis (``ttr_service.streams.sockets``): a topic
sent reaches every other hub's socket in the folder, a socket whose process is gone is
removed, and a hub's own socket is left to the hub."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

from ttr_service.streams import sockets, wakeups


def test_a_topic_reaches_other_sockets_and_a_dead_one_is_removed(
    settings: Any, tmp_path: Path
) -> None:
    settings.VAR_DIR = tmp_path
    folder = sockets.inbox_folder()
    folder.mkdir(parents=True, exist_ok=True)
    other = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)  # another process's hub
    other.bind(str(folder / "1-live.sock"))
    other.settimeout(2)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    dead.bind(str(folder / "2-dead.sock"))
    dead.close()  # its process is gone; the file stays behind
    try:
        sockets.send("game:12")
        assert other.recv(256) == b"game:12"
    finally:
        other.close()
    left = sorted(p.name for p in folder.iterdir())
    (folder / "1-live.sock").unlink()
    assert left == ["1-live.sock"]


def test_a_hub_is_woken_by_a_datagram_and_not_by_its_own_process(
    settings: Any, tmp_path: Path
) -> None:
    settings.REDIS_URL = None
    settings.VAR_DIR = tmp_path

    async def scenario() -> tuple[bool, bool, int]:
        hub = wakeups.hub()
        with hub.subscribe("game:7") as wake:
            inbox = hub._inbox
            assert inbox is not None
            sockets.send("game:7")  # this process: its hubs are woken directly, not here
            await asyncio.sleep(0.1)
            direct = wake.woken
            sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sender.sendto(b"game:7", inbox.path)  # as another process sends it
            sender.close()
            woken = await wake.wait(2)
        for task in hub._tasks:
            task.cancel()
        hub.close()
        return direct, woken, len(list(sockets.inbox_folder().iterdir()))

    assert asyncio.run(scenario()) == (False, True, 0)
