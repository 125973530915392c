"""With DEBUG on, the web server of ``make run`` listens on loopback addresses only.

scripts/serve binds 127.0.0.1 and passes gunicorn ``--config python:ttr_service.gunicorn_conf``,
whose start hook refuses, before any socket is opened, a bind address other machines can
reach while DEBUG is on. The process tests run the real gunicorn from this checkout.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.processes import BIN, ROOT, free_port, port_answers, wait_for
from ttr_service.gunicorn_conf import exposed, is_loopback

SERVE = ROOT / "scripts" / "serve"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("", False),
        ("192.168.1.20", False),
        ("10.0.0.1", False),
        ("no-such-host.invalid", False),
    ],
)
def test_only_loopback_addresses_count_as_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_the_exposed_addresses_are_named_and_sockets_are_not_judged() -> None:
    addresses: list[Any] = [("127.0.0.1", 8000), ("0.0.0.0", 8001), ("", 8002), "/tmp/web.sock", 3]
    assert exposed(addresses) == ["0.0.0.0:8001", "0.0.0.0:8002"]


def gunicorn(bind: str, **variables: str) -> subprocess.Popen[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    environment.update(variables)
    return subprocess.Popen(
        [
            str(BIN / "gunicorn"),
            "ttr_service.wsgi:application",
            *("--config", "python:ttr_service.gunicorn_conf"),
            *("--bind", bind, "--workers", "1"),
        ],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


@contextmanager
def serving(process: subprocess.Popen[str], port: int) -> Iterator[None]:
    try:
        wait_for(lambda: port_answers(port) or process.poll() is not None, 60, "gunicorn")
        assert process.poll() is None, process.communicate()[0]
        yield
    finally:
        process.terminate()
        process.communicate(timeout=30)


@pytest.mark.parametrize("host", ["0.0.0.0", "[::]"])
def test_with_debug_on_it_refuses_an_address_other_machines_reach(host: str) -> None:
    port = free_port()
    process = gunicorn(f"{host}:{port}")  # DEBUG unset: on, as under make run

    output, _ = process.communicate(timeout=60)

    assert process.returncode == 1
    assert "DEBUG is on" in output
    assert "loopback addresses only" in output
    assert not port_answers(port)


def test_with_debug_on_it_serves_on_loopback() -> None:
    port = free_port()
    with serving(gunicorn(f"127.0.0.1:{port}"), port):
        assert port_answers(port)


def test_with_debug_off_it_serves_every_interface() -> None:
    port = free_port()
    process = gunicorn(f"0.0.0.0:{port}", DEBUG="false", SECRET_KEY="s" * 50)
    with serving(process, port):
        assert port_answers(port)


def test_make_run_passes_the_guard_and_binds_loopback() -> None:
    script = SERVE.read_text()
    web = re.search(r"^web=\(\n(.*?)^\)", script, re.S | re.M)
    assert web is not None
    arguments = web.group(1).split()
    assert arguments[arguments.index("--config") + 1] == "python:ttr_service.gunicorn_conf"
    assert arguments[arguments.index("--bind") + 1].startswith('"127.0.0.1:')
