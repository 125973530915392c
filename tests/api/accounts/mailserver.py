"""A real SMTP server on the loopback (aiosmtpd), for the messages of the accounts app.

``MailServer`` listens on a free port of 127.0.0.1 in a thread of its own and keeps every
message it accepts; the tests point Django's SMTP backend at it and read the messages back.
"""

from __future__ import annotations

import email
import re
import socket
import threading
import time
from dataclasses import dataclass
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller


@dataclass(frozen=True)
class Received:
    sender: str
    recipients: list[str]
    message: Message

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def text(self) -> str:
        part = self.message.get_payload(decode=True)
        assert isinstance(part, bytes)
        text = part.decode(self.message.get_content_charset() or "utf-8")
        return text.replace("\r\n", "\n")

    def code(self) -> str:
        """The six-digit code of a verification message, on a line of its own."""
        found = re.findall(r"^(\d{6})$", self.text, re.MULTILINE)
        assert len(found) == 1, self.text
        return str(found[0])

    def link(self) -> str:
        found = re.findall(r"^(\S+://\S+)$", self.text, re.MULTILINE)
        assert len(found) == 1, self.text
        return str(found[0])


class _Keeper:
    def __init__(self) -> None:
        self.received: list[Received] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content)
        with self.lock:
            self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), message))
        return "250 Message accepted"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class MailServer:
    def __init__(self) -> None:
        self._keeper = _Keeper()
        self.port = free_port()
        self._controller = Controller(self._keeper, hostname="127.0.0.1", port=self.port)

    def start(self) -> None:
        self._controller.start()

    def stop(self) -> None:
        self._controller.stop()

    @property
    def messages(self) -> list[Received]:
        with self._keeper.lock:
            return list(self._keeper.received)

    def to(self, address: str) -> list[Received]:
        return [m for m in self.messages if address in m.recipients]

    def last_to(self, address: str, *, wait: float = 5.0) -> Received:
        """The last message to ``address``, waiting up to ``wait`` seconds for one."""
        deadline = time.monotonic() + wait
        while True:
            found = self.to(address)
            if found:
                return found[-1]
            assert time.monotonic() < deadline, f"no message to {address}"
            time.sleep(0.05)
