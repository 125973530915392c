"""The embedded default's Celery broker: kombu's filesystem transport, made safe to poll.

kombu's own transport creates a message file under its final name and then writes it, so a
worker polling the folder can pick up a file that is still empty or half written; decoding
it raises out of the worker's loop and the worker exits. This transport changes two steps
and keeps the rest of kombu's (names and their order, the processed folder, the exchange
tables and their locks):

* a message is written under a temporary name the reader never lists (``.<name>.part``)
  and then renamed to its final name, so a reader sees the whole file or nothing;
* a file that cannot be read or decoded is skipped: left in place while it is young (a
  writer of the old kind may still be writing it), set aside into the ``unreadable``
  folder beside the messages once it is older, with a warning, and never deleted.

Selected in settings with ``CELERY_BROKER_TRANSPORT = "ttr_service.tasks.broker_files:Transport"``;
``unreadable_folder`` is a transport option like kombu's ``processed_folder``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import time
import uuid
from queue import Empty
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads
from kombu.utils.objects import cached_property

logger = logging.getLogger(__name__)

#: A file that cannot be decoded is left where it is until it has not changed for this long.
UNREADABLE_AFTER_SECONDS = 2.0
#: The suffix of a message being written; the reader only lists names ending in ``.msg``.
PARTIAL_SUFFIX = ".part"


class Channel(filesystem.Channel):
    # _put and _get keep the signatures of kombu's filesystem channel, which differ from
    # those of the virtual channel it extends (kombu's stubs ignore the same).
    def _put(  # type: ignore[override]
        self, queue: str, payload: dict[str, Any], **kwargs: Any
    ) -> None:
        # kombu's name: milliseconds of the monotonic clock, so names sort in order sent.
        name = f"{round(time.monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".{name}{PARTIAL_SUFFIX}")
        try:
            with open(partial, "xb") as fh:
                fh.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(partial)
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def _get(self, queue: str) -> dict[str, Any]:  # type: ignore[override]
        wanted = f"{queue}.msg"
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.partition(".")[2] != wanted:
                continue
            path = os.path.join(self.data_folder_in, name)
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
            except FileNotFoundError:
                continue  # taken by another consumer since the listing
            except OSError as exc:
                self._set_aside_if_old(path, exc)
                continue
            try:
                payload = self._decode(data)
            except Exception as exc:
                self._set_aside_if_old(path, exc)
                continue
            if self._take(path):
                return payload
        raise Empty()

    def _decode(self, data: bytes) -> dict[str, Any]:
        payload: dict[str, Any] = loads(bytes_to_str(data))
        # The channel makes a Message of it once _get returns, where a failure would end
        # the worker's loop; make one here so a file that cannot be one is caught now.
        self.Message(payload, channel=self)
        return payload

    def _take(self, path: str) -> bool:
        """Remove the message from the queue (into the processed folder if kept)."""
        try:
            if self.store_processed:
                shutil.move(path, self.processed_folder)
            else:
                os.remove(path)
        except OSError:
            return False  # another consumer took it first
        return True

    def _set_aside_if_old(self, path: str, error: BaseException) -> None:
        try:
            age = time.time() - os.stat(path).st_mtime
        except FileNotFoundError:
            return
        if age < UNREADABLE_AFTER_SECONDS:
            return  # perhaps still being written; tried again on a later poll
        name = os.path.basename(path)
        try:
            os.makedirs(self.unreadable_folder, exist_ok=True)
            shutil.move(path, os.path.join(self.unreadable_folder, name))
        except FileNotFoundError:
            return
        except OSError as exc:
            logger.error("Unreadable message file %s could not be set aside: %s", path, exc)
            return
        logger.warning(
            "Unreadable message file %s set aside in %s: %s: %s",
            name,
            self.unreadable_folder,
            type(error).__name__,
            error,
        )

    @cached_property
    def unreadable_folder(self) -> str:
        default = os.path.join(os.path.dirname(os.path.abspath(self.data_folder_in)), "unreadable")
        return str(self.transport_options.get("unreadable_folder") or default)


class Transport(filesystem.Transport):
    Channel = Channel
