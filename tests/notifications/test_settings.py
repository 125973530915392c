"""The notification settings read from the environment, each case in a fresh interpreter."""

from __future__ import annotations

import subprocess

import pytest

from tests.settings_env import printed, run_setup

VARIABLES = (
    "NOTIFICATIONS_MAX_ATTEMPTS",
    "NOTIFICATIONS_RETRY_BASE_SECONDS",
    "NOTIFICATIONS_SWEEP_SECONDS",
    "PUSH_TRANSPORT",
    "EMAIL_BACKEND",
)
REPORT = (
    "import json; from django.conf import settings; print(json.dumps({"
    "'attempts': settings.NOTIFICATIONS_MAX_ATTEMPTS, 'push': settings.PUSH_TRANSPORT, "
    "'email': settings.EMAIL_BACKEND, "
    "'sweep': settings.CELERY_BEAT_SCHEDULE['notifications-sweep-outbox']['schedule']}))"
)


def settings_with(**variables: str) -> subprocess.CompletedProcess[str]:
    return run_setup(REPORT, VARIABLES, **variables)


def test_the_defaults_log_push_and_print_email() -> None:
    assert printed(settings_with()) == {
        "attempts": 8,
        "push": "logging",
        "email": "django.core.mail.backends.console.EmailBackend",
        "sweep": 30.0,
    }


def test_good_values_are_taken() -> None:
    report = printed(
        settings_with(
            NOTIFICATIONS_MAX_ATTEMPTS="3",
            NOTIFICATIONS_SWEEP_SECONDS="10",
            PUSH_TRANSPORT="example.push.FcmTransport",
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        )
    )

    assert (report["attempts"], report["sweep"]) == (3, 10.0)
    assert report["push"] == "example.push.FcmTransport"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("NOTIFICATIONS_MAX_ATTEMPTS", "0"),
        ("NOTIFICATIONS_MAX_ATTEMPTS", "many"),
        ("NOTIFICATIONS_RETRY_BASE_SECONDS", "-5"),
        ("PUSH_TRANSPORT", "fcm please"),
        ("EMAIL_BACKEND", "smtp"),
    ],
)
def test_a_bad_value_stops_startup_naming_the_variable(name: str, value: str) -> None:
    result = settings_with(**{name: value})

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"Environment variable {name}" in result.stderr
