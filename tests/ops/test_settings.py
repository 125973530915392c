"""The health limits and the heartbeat interval, read in a fresh interpreter."""

from __future__ import annotations

import pytest

from tests import settings_env

VARIABLES = (
    "WORKER_HEARTBEAT_SECONDS",
    "HEALTH_WORKER_MAX_AGE_SECONDS",
    "HEALTH_BEAT_MAX_AGE_SECONDS",
    "HEALTH_REQUIRE_WORKERS",
    "DEADLINE_SWEEP_SECONDS",
)

REPORT = """
import json
from django.conf import settings
print(json.dumps([
    settings.WORKER_HEARTBEAT_SECONDS,
    settings.HEALTH_WORKER_MAX_AGE_SECONDS,
    settings.HEALTH_BEAT_MAX_AGE_SECONDS,
    settings.HEALTH_REQUIRE_WORKERS,
]))
"""


def read(**variables: str):
    return settings_env.run_setup(REPORT, VARIABLES, **variables)


def test_the_defaults() -> None:
    # The beat's limit is three deadline sweeps (30 s each) and a 30 s margin.
    assert settings_env.printed(read()) == [10, 60, 120, True]


def test_the_beat_limit_follows_the_sweep_interval() -> None:
    assert settings_env.printed(read(DEADLINE_SWEEP_SECONDS="1"))[2] == 33


def test_each_is_read_from_the_environment() -> None:
    result = read(
        WORKER_HEARTBEAT_SECONDS="1",
        HEALTH_WORKER_MAX_AGE_SECONDS="3",
        HEALTH_BEAT_MAX_AGE_SECONDS="5",
        HEALTH_REQUIRE_WORKERS="false",
        DEADLINE_SWEEP_SECONDS="1",
    )
    assert settings_env.printed(result) == [1, 3, 5, False]


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"WORKER_HEARTBEAT_SECONDS": "0"}, "WORKER_HEARTBEAT_SECONDS: must be at least 1"),
        ({"HEALTH_WORKER_MAX_AGE_SECONDS": "soon"}, "expected a whole number; got 'soon'"),
        (
            {"WORKER_HEARTBEAT_SECONDS": "30", "HEALTH_WORKER_MAX_AGE_SECONDS": "30"},
            "HEALTH_WORKER_MAX_AGE_SECONDS: must be more than WORKER_HEARTBEAT_SECONDS (30)",
        ),
        (
            {"DEADLINE_SWEEP_SECONDS": "60", "HEALTH_BEAT_MAX_AGE_SECONDS": "45"},
            "HEALTH_BEAT_MAX_AGE_SECONDS: must be more than DEADLINE_SWEEP_SECONDS (60)",
        ),
        ({"HEALTH_REQUIRE_WORKERS": "maybe"}, "HEALTH_REQUIRE_WORKERS: expected one of"),
    ],
)
def test_a_bad_value_stops_startup_naming_the_variable(variables, message) -> None:
    result = read(**variables)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr
