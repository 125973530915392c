from typing import Any

import pytest

from tests.notifications.helpers import eager_tasks, receiver, recorded_pushes

__all__ = ["alice", "bob", "eager_tasks", "receiver", "recorded_pushes"]


@pytest.fixture
def alice(make_user: Any) -> Any:
    return make_user("alice", email="alice@example.org")


@pytest.fixture
def bob(make_user: Any) -> Any:
    return make_user("bob", email="bob@example.org")
