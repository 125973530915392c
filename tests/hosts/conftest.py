"""The hosts bed runs only when asked for with a marker expression that names ``hosts``
(``make test-hosts``: ``-m hosts``); the other passes' expressions do not mention it, so
without this they would collect it too."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "hosts" in (config.getoption("markexpr") or ""):
        return
    here = [item for item in items if item.get_closest_marker("hosts") is not None]
    if here:
        config.hook.pytest_deselected(items=here)
        items[:] = [item for item in items if item not in here]
