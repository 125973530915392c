"""Fixtures shared by the notification tests (the API ones import them too)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from notifications.push import RecordingTransport
from ttr_service import celery_app

from .receiver import Receiver, running_receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with running_receiver() as running:
        yield running


@pytest.fixture
def recorded_pushes(settings: Any) -> Iterator[list[Any]]:
    settings.PUSH_TRANSPORT = "recording"
    RecordingTransport.sent = []
    RecordingTransport.fail_with = None
    yield RecordingTransport.sent
    RecordingTransport.sent = []
    RecordingTransport.fail_with = None


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def player(db: None) -> Callable[..., Any]:
    def make(username: str, **fields: Any) -> Any:
        fields.setdefault("email", f"{username}@example.org")
        return get_user_model().objects.create_user(username=username, **fields)

    return make
