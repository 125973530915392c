"""Headless Chromium for the web client's end-to-end tests.

Debian's ``chromium`` (``/usr/bin/chromium``) is driven by Playwright with its executable
path set: Playwright's own browser downloads cannot be reached from here. A missing
browser fails the tests; ``.ci/run`` installs it. Screenshots go to ``var/artifacts/web/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

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
