"""The friends limits are read from the environment, strictly."""

from __future__ import annotations

import pytest

from tests import settings_env

LIMITS = {"MAX_FRIENDS_PER_USER": 500, "MAX_PENDING_FRIEND_REQUESTS": 50}


@pytest.mark.parametrize(("name", "default"), LIMITS.items())
@pytest.mark.parametrize("value", [None, "7"])
def test_a_limit_is_read_from_the_environment(name: str, default: int, value: str | None) -> None:
    result = settings_env.run_setup(
        f"import json; from django.conf import settings\nprint(json.dumps(settings.{name}))",
        [name],
        **({} if value is None else {name: value}),
    )
    assert settings_env.printed(result) == (default if value is None else 7)


@pytest.mark.parametrize("name", LIMITS)
@pytest.mark.parametrize("value", ["0", "many"])
def test_a_bad_limit_stops_startup_naming_the_variable(name: str, value: str) -> None:
    result = settings_env.run_setup("", [name], **{name: value})
    assert result.returncode != 0
    assert name in result.stderr
