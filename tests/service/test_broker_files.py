"""The embedded broker's transport (ttr_service/tasks/broker_files.py) on a temporary folder."""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from kombu import Connection

from tests import settings_env
from ttr_service.tasks import broker_files

QUEUE = "ttr-test"
TRANSPORT = "ttr_service.tasks.broker_files:Transport"
LOGGER = "ttr_service.tasks.broker_files"


class Folders:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.messages = root / "messages"
        self.processed = root / "processed"
        self.control = root / "control"
        self.unreadable = root / "unreadable"
        for folder in (self.messages, self.processed, self.control):
            folder.mkdir()
        self.connections: list[Connection] = []

    def connection(self, **options: Any) -> Connection:
        # The settings' own transport options, in this folder.
        conn = Connection(
            "filesystem://",
            transport=TRANSPORT,
            transport_options={
                "data_folder_in": str(self.messages),
                "data_folder_out": str(self.messages),
                "processed_folder": str(self.processed),
                "control_folder": str(self.control),
                "store_processed": False,
                "polling_interval": 0.01,
                **options,
            },
        )
        self.connections.append(conn)
        return conn

    def channel(self, **options: Any) -> broker_files.Channel:
        channel: broker_files.Channel = self.connection(**options).channel()
        return channel

    def names(self, folder: Path | None = None) -> list[str]:
        return sorted(os.listdir(folder or self.messages))


@pytest.fixture
def folders(tmp_path: Path) -> Iterator[Folders]:
    made = Folders(tmp_path)
    yield made
    for conn in made.connections:
        conn.release()


def publish(channel: broker_files.Channel, body: str, queue: str = QUEUE) -> None:
    channel.basic_publish(channel.prepare_message(body), "", queue)


def body_of(payload: dict[str, Any]) -> str:
    assert payload["properties"]["body_encoding"] == "base64"
    return base64.b64decode(payload["body"]).decode()


def drop(folder: Path, content: bytes, *, order: int = 0, queue: str = QUEUE) -> Path:
    """A file under a name the reader lists; ``order`` 0 sorts before any message put now."""
    path = folder / f"{order}_{uuid.uuid4()}.{queue}.msg"
    path.write_bytes(content)
    return path


def age(path: Path, seconds: float = 60) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def a_message_file(folders: Folders) -> bytes:
    """The bytes of a real message file, taken off the folder."""
    publish(folders.channel(), "a whole message")
    (name,) = folders.names()
    data = (folders.messages / name).read_bytes()
    (folders.messages / name).unlink()
    return data


def test_a_message_put_is_got_back_whole(folders: Folders) -> None:
    queue = folders.connection().SimpleQueue(QUEUE)
    queue.put({"game": 12, "seat": 1})
    message = queue.get(timeout=5)
    message.ack()

    assert message.payload == {"game": 12, "seat": 1}
    assert folders.names() == []
    queue.close()


def test_messages_come_back_in_the_order_they_were_put(folders: Folders) -> None:
    channel = folders.channel()
    for n in range(4):
        publish(channel, f"message {n}")
        time.sleep(0.003)  # names carry milliseconds

    got = [body_of(channel._get(QUEUE)) for _ in range(4)]

    assert got == [f"message {n}" for n in range(4)]
    with pytest.raises(Empty):
        channel._get(QUEUE)


def test_a_message_of_another_queue_is_left_alone(folders: Folders) -> None:
    channel = folders.channel()
    publish(channel, "not for this queue", queue="other")

    with pytest.raises(Empty):
        channel._get(QUEUE)
    assert body_of(channel._get("other")) == "not for this queue"


def test_the_processed_folder_keeps_each_message_taken_when_asked(folders: Folders) -> None:
    channel = folders.channel(store_processed=True)
    publish(channel, "kept")

    assert body_of(channel._get(QUEUE)) == "kept"
    assert folders.names() == []
    (name,) = folders.names(folders.processed)
    assert json.loads((folders.processed / name).read_bytes())["properties"]


BAD_FILES = {
    "empty": b"",
    "garbage": b"\xff\xfe\x00 not a message \x81",
    "truncated": b'{"body": "eyJnYW1lIjogMTJ9", "content-encoding": "utf-8", "propert',
    "not a message": b'{"game": 12}',
    "a list": b"[1, 2, 3]",
}


@pytest.mark.parametrize("kind", BAD_FILES)
def test_an_unreadable_file_is_skipped_while_young_and_set_aside_once_old(
    folders: Folders, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    channel = folders.channel()
    bad = drop(folders.messages, BAD_FILES[kind])
    publish(channel, "behind the bad file")

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        # Young: perhaps still being written, so left where it is; the message is delivered.
        assert body_of(channel._get(QUEUE)) == "behind the bad file"
        with pytest.raises(Empty):
            channel._get(QUEUE)
        assert folders.names() == [bad.name]
        assert not folders.unreadable.exists()
        assert caplog.records == []

        age(bad, broker_files.UNREADABLE_AFTER_SECONDS + 1)
        with pytest.raises(Empty):
            channel._get(QUEUE)

    assert folders.names() == []
    assert folders.names(folders.unreadable) == [bad.name]
    assert (folders.unreadable / bad.name).read_bytes() == BAD_FILES[kind]
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    assert bad.name in record.getMessage()
    assert "Error" in record.getMessage()  # the exception's type, e.g. JSONDecodeError


def test_bad_files_of_every_kind_never_stop_the_messages_among_them(
    folders: Folders, caplog: pytest.LogCaptureFixture
) -> None:
    channel = folders.channel()
    bad = []
    for n, content in enumerate(BAD_FILES.values()):
        bad.append(drop(folders.messages, content, order=n))
        publish(channel, f"message {n}")
        time.sleep(0.003)
    for path in bad[:2]:
        age(path)

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        got = [body_of(channel._get(QUEUE)) for _ in range(len(BAD_FILES))]
        with pytest.raises(Empty):
            channel._get(QUEUE)

    assert got == [f"message {n}" for n in range(len(BAD_FILES))]
    # The two old ones are set aside; the young ones wait for a later poll.
    assert folders.names(folders.unreadable) == sorted(p.name for p in bad[:2])
    assert folders.names() == sorted(p.name for p in bad[2:])
    assert sorted(r.getMessage().split()[3] for r in caplog.records) == sorted(
        p.name for p in bad[:2]
    )


def test_a_file_still_being_written_is_delivered_once_whole(folders: Folders) -> None:
    # A writer of kombu's own kind creates the file under its final name, then writes it.
    data = a_message_file(folders)
    channel = folders.channel()
    path = drop(folders.messages, data[: len(data) // 2])

    with pytest.raises(Empty):
        channel._get(QUEUE)
    assert folders.names() == [path.name]

    with path.open("ab") as fh:
        fh.write(data[len(data) // 2 :])
    assert body_of(channel._get(QUEUE)) == "a whole message"
    assert folders.names() == []


def test_a_reader_never_lists_a_message_being_written(
    folders: Folders, caplog: pytest.LogCaptureFixture
) -> None:
    writer, reader = folders.channel(), folders.channel()
    body = "x" * (48 * 1024 * 1024)
    written = threading.Event()
    seen: set[str] = set()
    got: list[dict[str, Any]] = []

    def put() -> None:
        try:
            publish(writer, body)
        finally:
            written.set()

    thread = threading.Thread(target=put)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        thread.start()
        while not written.is_set():
            seen.update(os.listdir(folders.messages))
            with contextlib.suppress(Empty):
                got.append(reader._get(QUEUE))
        thread.join()
        with contextlib.suppress(Empty):
            got.append(reader._get(QUEUE))

    partial = [name for name in seen if name.startswith(".")]
    assert partial, f"the listing never caught the message being written: {seen}"
    assert all(name.endswith(broker_files.PARTIAL_SUFFIX) for name in partial)
    assert len(got) == 1 and body_of(got[0]) == body
    assert reader._size(QUEUE) == 0
    assert folders.names() == []
    assert caplog.records == []
    assert not folders.unreadable.exists()


def test_the_unreadable_folder_can_be_chosen(folders: Folders, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    channel = folders.channel(unreadable_folder=str(elsewhere))
    bad = drop(folders.messages, b"")
    age(bad)

    with pytest.raises(Empty):
        channel._get(QUEUE)

    assert os.listdir(elsewhere) == [bad.name]


TRANSPORT_REPORT = """
import json
from ttr_service.celery import app
with app.connection_for_write() as conn:
    transport = type(conn.transport)
    print(json.dumps({"transport": f"{transport.__module__}:{transport.__name__}"}))
"""


def test_the_embedded_default_publishes_and_consumes_through_this_transport() -> None:
    report = settings_env.printed(
        settings_env.run_setup(TRANSPORT_REPORT, unset=("DATABASE_URL", "REDIS_URL"))
    )
    assert report["transport"] == TRANSPORT


def test_redis_keeps_its_own_transport() -> None:
    report = settings_env.printed(
        settings_env.run_setup(
            TRANSPORT_REPORT, unset=("DATABASE_URL",), REDIS_URL="redis://127.0.0.1:6379/2"
        )
    )
    assert report["transport"] == "kombu.transport.redis:Transport"
