"""Fixtures of the account tests: tasks run in the request, a real SMTP server, and a
stand-in for Apple's and Google's keys.

- ``mail``: a ``MailServer`` on the loopback, with Django's SMTP backend pointed at it and
  Celery tasks run eagerly, so a request's message has arrived when its answer has.
- ``keys``: a ``KeyServer`` serving one signing key, with both providers configured to read
  it (``settings.SIGN_IN_PROVIDERS``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.api.accounts.mailserver import MailServer
from tests.api.accounts.provider_keys import KeyServer, SigningKey, provider_settings
from ttr_service.celery import app as celery_app


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def mail(settings: Any, eager_tasks: None) -> Iterator[MailServer]:
    server = MailServer()
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = server.port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.DEFAULT_FROM_EMAIL = "ttr@example.org"
    yield server
    server.stop()


@pytest.fixture(scope="session")
def signing_key() -> SigningKey:
    return SigningKey()


@pytest.fixture
def keys(settings: Any, signing_key: SigningKey) -> Iterator[KeyServer]:
    server = KeyServer(signing_key)
    server.start()
    settings.SIGN_IN_PROVIDERS = provider_settings(server.url)
    yield server
    server.stop()
