"""Push, webhook-address and retention settings, each case in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.settings_env import printed, run_setup

from .push_fakes import ec_key, pem, rsa_key, service_account_json

VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "PUSH_TRANSPORT",
    "FCM_PROJECT_ID",
    "FCM_CREDENTIALS_FILE",
    "APNS_KEY_FILE",
    "APNS_KEY_ID",
    "APNS_TEAM_ID",
    "APNS_TOPIC",
    "APNS_USE_SANDBOX",
    "WEBHOOK_ALLOW_PRIVATE",
    "NOTIFICATIONS_RETENTION_DAYS",
)
NAMES = (
    "PUSH_TRANSPORT",
    "FCM_PROJECT_ID",
    "FCM_CREDENTIALS_FILE",
    "APNS_KEY_ID",
    "APNS_TEAM_ID",
    "APNS_TOPIC",
    "APNS_USE_SANDBOX",
    "WEBHOOK_ALLOW_PRIVATE",
    "NOTIFICATIONS_RETENTION_DAYS",
)
REPORT = (
    "import json; from django.conf import settings; "
    f"print(json.dumps({{n: getattr(settings, n) for n in {NAMES!r}}}))"
)


def settings_with(**variables: str) -> subprocess.CompletedProcess[str]:
    return run_setup(REPORT, VARIABLES, **variables)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("push")
    (folder / "sa.json").write_text(json.dumps(service_account_json(rsa_key())))
    (folder / "sa-no-project.json").write_text(
        json.dumps(service_account_json(rsa_key(), project_id=None))
    )
    (folder / "sa-ec.json").write_text(json.dumps(service_account_json(ec_key())))
    (folder / "not-json.json").write_text("project = ttr")
    (folder / "apns.p8").write_text(pem(ec_key()))
    (folder / "rsa.p8").write_text(pem(rsa_key()))
    return {p.name: str(p) for p in folder.iterdir()}


def apns_variables(files: dict[str, str]) -> dict[str, str]:
    return {
        "APNS_KEY_FILE": files["apns.p8"],
        "APNS_KEY_ID": "KEY1234567",
        "APNS_TEAM_ID": "TEAM123456",
        "APNS_TOPIC": "org.example.ttr",
    }


def test_the_defaults_log_push_allow_private_webhooks_in_debug_and_keep_30_days() -> None:
    assert printed(settings_with()) == {
        "PUSH_TRANSPORT": "logging",
        "FCM_PROJECT_ID": None,
        "FCM_CREDENTIALS_FILE": None,
        "APNS_KEY_ID": None,
        "APNS_TEAM_ID": None,
        "APNS_TOPIC": None,
        "APNS_USE_SANDBOX": False,
        "WEBHOOK_ALLOW_PRIVATE": True,
        "NOTIFICATIONS_RETENTION_DAYS": 30,
    }


def test_private_webhooks_are_refused_by_default_with_debug_off() -> None:
    shown = printed(settings_with(DEBUG="false", SECRET_KEY="k" * 50))

    assert shown["WEBHOOK_ALLOW_PRIVATE"] is False


def test_private_webhooks_can_be_allowed_with_debug_off() -> None:
    shown = printed(settings_with(DEBUG="false", SECRET_KEY="k" * 50, WEBHOOK_ALLOW_PRIVATE="yes"))

    assert shown["WEBHOOK_ALLOW_PRIVATE"] is True


def test_both_native_transports_are_taken_with_their_credentials(files: dict[str, str]) -> None:
    shown = printed(
        settings_with(
            PUSH_TRANSPORT="fcm, apns",
            FCM_CREDENTIALS_FILE=files["sa.json"],
            APNS_USE_SANDBOX="true",
            **apns_variables(files),
        )
    )

    assert shown["PUSH_TRANSPORT"] == "fcm,apns"
    # The project comes from the credentials file unless FCM_PROJECT_ID names one.
    assert shown["FCM_PROJECT_ID"] == "ttr-test"
    assert (shown["APNS_KEY_ID"], shown["APNS_TEAM_ID"]) == ("KEY1234567", "TEAM123456")
    assert shown["APNS_USE_SANDBOX"] is True


def test_fcm_project_id_overrides_the_file(files: dict[str, str]) -> None:
    shown = printed(
        settings_with(
            PUSH_TRANSPORT="fcm", FCM_CREDENTIALS_FILE=files["sa.json"], FCM_PROJECT_ID="ttr-prod"
        )
    )

    assert shown["FCM_PROJECT_ID"] == "ttr-prod"


CASES = {
    "fcm without credentials": ({"PUSH_TRANSPORT": "fcm"}, "FCM_CREDENTIALS_FILE", "must name"),
    "missing file": (
        {"PUSH_TRANSPORT": "fcm", "FCM_CREDENTIALS_FILE": "/nonexistent/sa.json"},
        "FCM_CREDENTIALS_FILE",
        "cannot read",
    ),
    "not json": (
        {"PUSH_TRANSPORT": "fcm", "FCM_CREDENTIALS_FILE": "not-json.json"},
        "FCM_CREDENTIALS_FILE",
        "is not a JSON file",
    ),
    "an ec key in the service account": (
        {"PUSH_TRANSPORT": "fcm", "FCM_CREDENTIALS_FILE": "sa-ec.json"},
        "FCM_CREDENTIALS_FILE",
        "not an RSA key",
    ),
    "no project anywhere": (
        {"PUSH_TRANSPORT": "fcm", "FCM_CREDENTIALS_FILE": "sa-no-project.json"},
        "FCM_PROJECT_ID",
        "must be set",
    ),
    "apns without a topic": (
        {"PUSH_TRANSPORT": "apns", "APNS_TOPIC": ""},
        "APNS_TOPIC",
        "must be set",
    ),
    "a short key id": (
        {"PUSH_TRANSPORT": "apns", "APNS_KEY_ID": "KEY1"},
        "APNS_KEY_ID",
        "10 capital letters or digits",
    ),
    "an rsa key for apns": (
        {"PUSH_TRANSPORT": "apns", "APNS_KEY_FILE": "rsa.p8"},
        "APNS_KEY_FILE",
        "not a P-256",
    ),
    "apns variables set but broken while logging": (
        {
            "PUSH_TRANSPORT": "logging",
            "APNS_KEY_FILE": "apns.p8",
            "APNS_KEY_ID": "KEY1234567",
            "APNS_TEAM_ID": "team",
            "APNS_TOPIC": "org.example.ttr",
        },
        "APNS_TEAM_ID",
        "10 capital letters or digits",
    ),
    "apns variables half set while logging": (
        {"PUSH_TRANSPORT": "logging", "APNS_KEY_ID": "KEY1234567"},
        "APNS_KEY_FILE",
        "must be set when other APNS_ variables are",
    ),
    "a platform twice": ({"PUSH_TRANSPORT": "fcm,fcm"}, "PUSH_TRANSPORT", "named twice"),
    "an unknown platform": ({"PUSH_TRANSPORT": "fcm,wns"}, "PUSH_TRANSPORT", "dotted Python"),
    "a bad sandbox flag": ({"APNS_USE_SANDBOX": "maybe"}, "APNS_USE_SANDBOX", "expected one"),
    "a bad private flag": ({"WEBHOOK_ALLOW_PRIVATE": "2"}, "WEBHOOK_ALLOW_PRIVATE", "expected"),
    "no retention": (
        {"NOTIFICATIONS_RETENTION_DAYS": "0"},
        "NOTIFICATIONS_RETENTION_DAYS",
        "at least 1",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_bad_value_stops_startup_naming_the_variable(case: str, files: dict[str, str]) -> None:
    variables, name, words = CASES[case]
    if variables.get("PUSH_TRANSPORT") == "apns":
        variables = {**apns_variables(files), **variables}
    variables = {k: files.get(v, v) for k, v in variables.items()}

    result = settings_with(**variables)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    last_line = result.stderr.strip().splitlines()[-1]
    assert f"Environment variable {name}:" in last_line
    assert words in last_line
