"""Wake-ups between the processes of one machine, without Redis: a Unix datagram socket
per web process.

Each web process's hub binds a datagram socket in one folder (``inbox_folder``) and reads
it on its event loop; a process that commits a change (a web process, the Celery worker)
sends the change's topic, as one datagram, to every socket in the folder once the change
commits. Sending never waits: a socket whose process is gone refuses the datagram and is
removed; a full one drops it. Either way the hub's database poll finds the change a little
later, so a lost datagram only delays an event (docs/decisions/0330).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import hashlib
import logging
import os
import secrets
import socket
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

logger = logging.getLogger(__name__)

# The longest path a Unix socket may be bound at (sun_path, less its final NUL).
_MOST_PATH_BYTES = 100
# A topic is short (``game:12``); a longer datagram is not one of ours.
_MOST_TOPIC_BYTES = 200
_SUFFIX = ".sock"


def inbox_folder() -> Path:
    """Where the web processes sharing this ``VAR_DIR`` bind their sockets:
    ``VAR_DIR/wake``, or, when a socket's path there would be too long for the system, a
    folder in the temporary directory named after ``VAR_DIR``."""
    var_dir = Path(settings.VAR_DIR).resolve()
    folder = var_dir / "wake"
    if len(os.fsencode(folder)) + 32 <= _MOST_PATH_BYTES:
        return folder
    digest = hashlib.sha256(os.fsencode(var_dir)).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"ttr-wake-{digest}"


# The sockets of this process's hubs: their own wake-ups reach them directly.
_own: set[str] = set()


class Inbox:
    """A hub's socket: every datagram read from it wakes the streams of its topic."""

    def __init__(self, loop: asyncio.AbstractEventLoop, wake: Callable[[str], None]) -> None:
        self.loop = loop
        self.wake = wake
        folder = inbox_folder()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.path = str(folder / f"{os.getpid()}-{secrets.token_hex(4)}{_SUFFIX}")
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.setblocking(False)
        self.socket.bind(self.path)
        _own.add(self.path)
        loop.add_reader(self.socket.fileno(), self._read)
        atexit.register(self.close)

    def _read(self) -> None:
        while True:
            try:
                data = self.socket.recv(_MOST_TOPIC_BYTES + 1)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                logger.warning("Could not read a wake-up", exc_info=True)
                return
            if 0 < len(data) <= _MOST_TOPIC_BYTES:
                self.wake(data.decode(errors="replace"))

    def close(self) -> None:
        _own.discard(self.path)
        with contextlib.suppress(Exception):
            self.loop.remove_reader(self.socket.fileno())
        self.socket.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)


_sender: socket.socket | None = None
_sender_lock = threading.Lock()


def _sending_socket() -> socket.socket:
    global _sender
    if _sender is None:
        _sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        _sender.setblocking(False)
    return _sender


def send(topic: str) -> None:
    """Send ``topic`` to the sockets of every other process's hub; remove those whose
    process is gone."""
    data = topic.encode()
    try:
        entries = list(os.scandir(inbox_folder()))
    except FileNotFoundError:  # no web process has opened a stream yet
        return
    with _sender_lock:
        sender = _sending_socket()
        for entry in entries:
            if not entry.name.endswith(_SUFFIX) or entry.path in _own:
                continue
            try:
                sender.sendto(data, entry.path)
            except (ConnectionRefusedError, FileNotFoundError):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
            except (BlockingIOError, InterruptedError):
                pass  # its queue is full: that process's poll finds the change
            except OSError:
                logger.warning("Could not send a wake-up to %s", entry.path, exc_info=True)
