"""Headless Chromium for the web client's end-to-end tests, against the ASGI application.

Debian's ``chromium`` (``/usr/bin/chromium``) is driven by Playwright with its executable
path set: Playwright's own browser downloads cannot be reached from here. A missing
browser fails the tests; ``.ci/run`` installs it. Screenshots go to ``var/artifacts/web/``.

The server is the ASGI application on uvicorn, in a thread of the test process, as
``make run`` serves it: the game's event stream needs it (Django's WSGI server would read
an endless stream to its end before answering).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from ttr_service.celery import app as celery_app

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "var" / "artifacts" / "web"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium "
            "(apt-get install -y --no-install-recommends chromium)"
        )
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread, and Django refuses
    # database calls from a thread with a running loop. The calls made here (test setup and
    # assertions) are plain synchronous ones, so the check is lifted while the browser is
    # open, and only then: the loop stops when the module's tests are done.
    saved = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as pw:
            chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if saved is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = saved


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(autouse=True)
def _ai_turns_inline() -> Iterator[None]:
    # AI seats move inside the request that handed them the turn, right after its commit,
    # so the live server needs no worker process.
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.fixture
def _fast_passwords(settings: object) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


@pytest.fixture
def web_server(
    transactional_db: None, browser: object, settings: object, monkeypatch: pytest.MonkeyPatch
) -> Iterator[SimpleNamespace]:
    """The ASGI application (static files included) on uvicorn, on a free port.

    The test database is SQLite in memory: every thread of the server uses the test's own
    connection to it, as Django's live server thread does (connections of their own to a
    shared in-memory database lock each other's tables and fail at once).

    Streams notice a closed connection at their next heartbeat: a second here, so that none
    reads the database after its test. The test's pages are closed before the server.
    """
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.db import DEFAULT_DB_ALIAS, connections
    from django.db.utils import ConnectionHandler

    from ttr_service.asgi import application

    settings.STREAM_HEARTBEAT_SECONDS = 1  # type: ignore[attr-defined]
    shared = connections[DEFAULT_DB_ALIAS]
    if shared.vendor == "sqlite" and shared.is_in_memory_db():
        own = ConnectionHandler.__getitem__

        def the_tests_connection(handler: ConnectionHandler, alias: str) -> object:
            if handler is connections and alias == DEFAULT_DB_ALIAS:
                return shared
            return own(handler, alias)

        monkeypatch.setattr(ConnectionHandler, "__getitem__", the_tests_connection)
        shared.inc_thread_sharing()
        request_finalizer = shared.dec_thread_sharing
    else:
        request_finalizer = None

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        ASGIStaticFilesHandler(application),
        host="127.0.0.1",
        port=port,
        lifespan="off",
        log_level="warning",
        timeout_graceful_shutdown=3,
    )
    running: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start() -> None:
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, name="web-server", daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                pytest.fail("uvicorn did not start")
            time.sleep(0.05)
        running.append((server, thread))

    def stop() -> None:
        server, thread = running.pop()
        server.should_exit = True
        thread.join(timeout=10)

    start()
    # restart(between): the service stops (its connections, streams included, close), then
    # between() runs, then it starts again on the same address.
    yield SimpleNamespace(
        url=f"http://127.0.0.1:{port}",
        restart=lambda between=lambda: None: (stop(), between(), start()),
    )
    for context in list(browser.contexts):  # type: ignore[attr-defined]
        context.close()
    time.sleep(1.5)  # the streams' next heartbeat finds their connection closed
    stop()
    if request_finalizer is not None:
        request_finalizer()


@pytest.fixture
def mail(settings: object) -> Iterator[object]:
    """A real SMTP server on the loopback, with Django's SMTP backend pointed at it: the
    messages the pages make the service send (e-mail codes) are read from it."""
    from tests.api.accounts.mailserver import MailServer

    server = MailServer()
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"  # type: ignore[attr-defined]
    settings.EMAIL_HOST = "127.0.0.1"  # type: ignore[attr-defined]
    settings.EMAIL_PORT = server.port  # type: ignore[attr-defined]
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""  # type: ignore[attr-defined]
    settings.EMAIL_USE_TLS = False  # type: ignore[attr-defined]
    settings.DEFAULT_FROM_EMAIL = "ttr@example.org"  # type: ignore[attr-defined]
    yield server
    server.stop()
