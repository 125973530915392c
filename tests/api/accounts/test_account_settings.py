"""The settings of e-mail verification, password reset and sign-in providers, read from the
environment, each case in a fresh interpreter."""

from __future__ import annotations

from typing import Any

import pytest

from tests.settings_env import printed, run_setup

VARIABLES = (
    "EMAIL_CODE_HOURS",
    "EMAIL_CODE_ATTEMPTS",
    "THROTTLE_EMAIL_CODE_RATES",
    "EMAIL_VERIFY_URL",
    "PASSWORD_RESET_URL",
    "PASSWORD_RESET_MINUTES",
    "THROTTLE_RESET_ADDRESS_RATES",
    "THROTTLE_RESET_IP_RATES",
    "APPLE_CLIENT_IDS",
    "APPLE_ISSUERS",
    "APPLE_JWKS_URL",
    "GOOGLE_CLIENT_IDS",
    "GOOGLE_ISSUERS",
    "GOOGLE_JWKS_URL",
)

REPORT = """
import json
from dataclasses import asdict
from django.conf import settings
print(json.dumps({
    "email": asdict(settings.ACCOUNT_EMAIL),
    "reset_seconds": settings.PASSWORD_RESET_TIMEOUT,
    "providers": {k: asdict(v) for k, v in settings.SIGN_IN_PROVIDERS.items()},
}))
"""


def load(**variables: str) -> dict[str, Any]:
    return printed(run_setup(REPORT, VARIABLES, **variables))


def test_the_defaults() -> None:
    report = load()

    assert report["email"] == {
        "code_hours": 24,
        "code_attempts": 5,
        "code_rates": [{"count": 1, "seconds": 60}, {"count": 5, "seconds": 3600}],
        "verify_url": "ttr://verify-email?code={code}",
        "reset_url": "ttr://reset-password?token={token}",
        "reset_address_rates": [{"count": 3, "seconds": 3600}],
        "reset_ip_rates": [{"count": 20, "seconds": 3600}],
    }
    assert report["reset_seconds"] == 1800
    assert report["providers"]["apple"] == {
        "client_ids": [],
        "issuers": ["https://appleid.apple.com"],
        "jwks_url": "https://appleid.apple.com/auth/keys",
    }
    assert report["providers"]["google"]["client_ids"] == []
    assert report["providers"]["google"]["issuers"] == [
        "https://accounts.google.com",
        "accounts.google.com",
    ]


def test_the_environment_overrides_each_default() -> None:
    report = load(
        EMAIL_CODE_HOURS="2",
        EMAIL_CODE_ATTEMPTS="3",
        THROTTLE_EMAIL_CODE_RATES="2/min, 10/day",
        EMAIL_VERIFY_URL="https://ttr.example.org/verify?c={code}",
        PASSWORD_RESET_URL="https://ttr.example.org/reset/{token}",
        PASSWORD_RESET_MINUTES="15",
        THROTTLE_RESET_ADDRESS_RATES="5/day",
        THROTTLE_RESET_IP_RATES="100/hour",
        APPLE_CLIENT_IDS="org.example.ttr, org.example.ttr.web",
        GOOGLE_CLIENT_IDS="1-a.apps.googleusercontent.com",
        GOOGLE_JWKS_URL="http://127.0.0.1:9/keys",
        APPLE_ISSUERS="https://issuer.test",
    )

    assert report["email"]["code_hours"] == 2
    assert report["email"]["code_attempts"] == 3
    assert report["email"]["code_rates"] == [
        {"count": 2, "seconds": 60},
        {"count": 10, "seconds": 86400},
    ]
    assert report["email"]["verify_url"] == "https://ttr.example.org/verify?c={code}"
    assert report["email"]["reset_address_rates"] == [{"count": 5, "seconds": 86400}]
    assert report["reset_seconds"] == 900
    assert report["providers"]["apple"]["client_ids"] == ["org.example.ttr", "org.example.ttr.web"]
    assert report["providers"]["apple"]["issuers"] == ["https://issuer.test"]
    assert report["providers"]["google"]["jwks_url"] == "http://127.0.0.1:9/keys"


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("THROTTLE_EMAIL_CODE_RATES", "1/fortnight", "expected rates like 1/min,5/hour"),
        ("EMAIL_VERIFY_URL", "https://ttr.example.org/verify", "holding {code} once"),
        ("PASSWORD_RESET_URL", "/reset/{token}", "an absolute URL"),
        ("PASSWORD_RESET_MINUTES", "0", "must be at least 1"),
        ("EMAIL_CODE_ATTEMPTS", "many", "expected a whole number"),
        ("APPLE_JWKS_URL", "ftp://keys.example.org/", "http:// or https://"),
    ],
)
def test_a_bad_value_stops_startup_naming_its_variable(name: str, value: str, says: str) -> None:
    result = run_setup(REPORT, VARIABLES, **{name: value})

    assert result.returncode != 0
    assert f"Environment variable {name}: " in result.stderr
    assert says in result.stderr
