"""A Server-Sent Events client for the tests and bench/streams.py: reads one stream in a
thread and keeps every event with the time it arrived. No Django here."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass
class Received:
    event: str
    id: str | None
    data: Any
    at: float  # time.time() when its blank line arrived


@dataclass
class StreamReader:
    """``GET url`` as a stream, in a thread, until ``stop()``, the server closes it, or an
    ``end`` event arrives."""

    url: str
    headers: dict[str, str] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    events: list[Received] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # every line as received
    status: int | None = None
    error: BaseException | None = None
    closed: bool = False

    def start(self) -> StreamReader:
        self._stop = threading.Event()
        self._opened = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._opened.wait(30), f"stream {self.url} did not open"
        return self

    def _run(self) -> None:
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(10, read=60)) as client,
                client.stream("GET", self.url, headers=self.headers, params=self.params) as r,
            ):
                self.status = r.status_code
                self._opened.set()
                if r.status_code != 200:
                    return
                name, ident, data = "message", None, []
                for line in r.iter_lines():
                    if self._stop.is_set():
                        return
                    self.lines.append(line)
                    if line.startswith(":"):
                        self.comments.append(line)
                    elif line.startswith("event: "):
                        name = line[7:]
                    elif line.startswith("id: "):
                        ident = line[4:]
                    elif line.startswith("data: "):
                        data.append(line[6:])
                    elif line == "" and data:
                        self.events.append(
                            Received(name, ident, json.loads("\n".join(data)), time.time())
                        )
                        if name == "end":
                            return
                        name, ident, data = "message", None, []
        except BaseException as error:  # reported to the test
            self.error = error
        finally:
            self.closed = True
            self._opened.set()

    def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(Exception):
            self._thread.join(5)

    def wait_for(self, check: Any, timeout: float, what: str) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if check(self):
                return
            if self.closed and not check(self):
                break
            time.sleep(0.05)
        raise AssertionError(
            f"timed out waiting for {what}: {len(self.events)} events, "
            f"status {self.status}, closed {self.closed}, error {self.error!r}"
        )

    def ids(self, name: str = "move") -> list[int]:
        """The events' ids, of one part (the move number) or of the first part of two."""
        return [
            int(e.id.split(".")[0].removesuffix("-end"))
            for e in self.events
            if e.event == name and e.id is not None
        ]

    def ids_of(self, name: str) -> list[int]:
        """The move numbers of ``move`` events, the message ids of ``chat`` events."""
        if name == "chat":
            return [int(e.data["id"]) for e in self.events if e.event == name]
        return [int(e.data["number"]) for e in self.events if e.event == name]
