"""gunicorn's configuration for the service: ``--config python:ttr_service.gunicorn_conf``.

scripts/serve (``make run``) passes it. With ``DEBUG`` on, Django answers an error outside
``/api/`` with its debug page: the settings, the request, the local variables of every
frame. ``make run`` leaves ``DEBUG`` on, so with it on gunicorn refuses, before it opens a
socket, to listen on any address but a loopback one (or a Unix socket).

gunicorn reads the module's names that are its settings: ``keepalive`` and the hooks
below. ``on_starting`` also starts the web's process group for the metrics (its workers'
values are summed at a scrape; ttr_service/config/observability.py), and ``child_exit``
forgets the per-process gauges of a worker that exited.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from typing import Any

from django.conf import settings

from ttr_service.config import observability

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")

# Seconds an idle kept-alive connection stays open (uvicorn's ``timeout_keep_alive``).
# Longer than any client or proxy in front keeps one idle (a load balancer's 60 s,
# aiohttp's 15 s, httpx's 5 s): whoever closes an idle connection first must be the
# client, or a request it sends as the server closes is reset. gunicorn's own default,
# 2 s, reset 2 % of the requests of clients reusing connections after about 2 s
# (docs/decisions/0311).
keepalive = 75


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` names is a loopback address (a name that does not
    resolve is not)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(found) and all(ipaddress.ip_address(f[4][0]).is_loopback for f in found)


def exposed(addresses: list[tuple[str, int] | str | int]) -> list[str]:
    """The addresses (as gunicorn parses ``--bind``) reachable from other machines.

    A (host, port) pair is, unless its host is loopback; a Unix socket path (a string) and
    an inherited file descriptor (an int) are not judged here.
    """
    return [
        f"{address[0] or '0.0.0.0'}:{address[1]}"
        for address in addresses
        if isinstance(address, tuple) and not is_loopback(address[0])
    ]


def on_starting(server: Any) -> None:
    """gunicorn's hook, run before the sockets are opened and the workers started."""
    observability.group_start(settings.METRICS.dir, "web")
    if not settings.DEBUG:
        return
    reachable = exposed(server.cfg.address)
    if reachable:
        raise RuntimeError(
            f"DEBUG is on, so the service listens on loopback addresses only, not "
            f"{', '.join(reachable)}. Bind 127.0.0.1 (or [::1]), or set DEBUG=false with a "
            "SECRET_KEY to serve other machines."
        )


def child_exit(server: Any, worker: Any) -> None:
    """gunicorn's hook, run in the master when a worker has exited."""
    observability.process_gone(worker.pid)
