"""The scale test runs only when asked for with a marker expression that names ``scale``
(``make test-scale``: ``-m scale``). The other passes' expressions do not mention it, so
without this it would be collected by them too."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "scale" in (config.getoption("markexpr") or ""):
        return
    here = [item for item in items if item.get_closest_marker("scale") is not None]
    if here:
        config.hook.pytest_deselected(items=here)
        items[:] = [item for item in items if item not in here]
