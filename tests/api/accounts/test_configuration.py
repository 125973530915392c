"""The accounts settings read from the environment, each case in a fresh interpreter."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from tests.settings_env import printed, run_setup

VARIABLES = (
    "TOKEN_TTL_DAYS",
    "LOGIN_FAILURE_LIMIT",
    "LOGIN_COOLOFF_MINUTES",
    "THROTTLE_ANON_RATE",
    "THROTTLE_USER_RATE",
    "THROTTLE_LOGIN_RATE",
    "THROTTLE_SCORE_RATE",
    "NUM_PROXIES",
)

REPORT = """
import json
from django.conf import settings
print(json.dumps({
    "token_ttl_seconds": settings.REST_KNOX["TOKEN_TTL"].total_seconds(),
    "failure_limit": settings.AXES_FAILURE_LIMIT,
    "cool_off_seconds": settings.AXES_COOLOFF_TIME.total_seconds(),
    "rates": settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
    "num_proxies": settings.REST_FRAMEWORK["NUM_PROXIES"],
}))
"""


def run(**variables: str) -> subprocess.CompletedProcess[str]:
    return run_setup(REPORT, VARIABLES, **variables)


def load(**variables: str) -> dict[str, Any]:
    return printed(run(**variables))


def test_the_defaults_are_30_day_tokens_5_failures_and_15_minutes_cool_off() -> None:
    report = load()

    assert report["token_ttl_seconds"] == 30 * 86400
    assert report["failure_limit"] == 5
    assert report["cool_off_seconds"] == 15 * 60
    assert report["rates"] == {
        "anon": "300/min",
        "user": "1200/min",
        "login": "10/min",
        "score": "60/min",
    }
    assert report["num_proxies"] == 0


def test_the_environment_overrides_each_default() -> None:
    report = load(
        TOKEN_TTL_DAYS="7",
        LOGIN_FAILURE_LIMIT="3",
        LOGIN_COOLOFF_MINUTES="60",
        THROTTLE_ANON_RATE="20/min",
        THROTTLE_USER_RATE="5000/hour",
        THROTTLE_LOGIN_RATE="3/sec",
        THROTTLE_SCORE_RATE="100/hour",
        NUM_PROXIES="1",
    )

    assert report["token_ttl_seconds"] == 7 * 86400
    assert report["failure_limit"] == 3
    assert report["cool_off_seconds"] == 3600
    assert report["rates"] == {
        "anon": "20/min",
        "user": "5000/hour",
        "login": "3/sec",
        "score": "100/hour",
    }
    assert report["num_proxies"] == 1


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("THROTTLE_USER_RATE", "lots"),
        ("THROTTLE_LOGIN_RATE", "10/fortnight"),
        ("THROTTLE_ANON_RATE", "0/min"),
        ("THROTTLE_SCORE_RATE", "plenty"),
        ("LOGIN_FAILURE_LIMIT", "0"),
        ("LOGIN_COOLOFF_MINUTES", "a while"),
        ("TOKEN_TTL_DAYS", "0"),
    ],
)
def test_it_refuses_a_bad_value_at_startup(variable: str, value: str) -> None:
    result = run(**{variable: value})

    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line.startswith("django.core.exceptions.ImproperlyConfigured:")
    assert f"Environment variable {variable}" in last_line
