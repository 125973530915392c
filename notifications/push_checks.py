"""The push credentials, checked once when the app is loaded (``NotificationsConfig.ready``).

The settings read the push variables and check what their values show on their own
(``ttr_service.config.push_env``). What needs the files read is checked here: the service
account and the APNs key must load and be of the right kind, and a project must be known.
A bad file stops startup with ``ImproperlyConfigured`` naming its variable, as a bad
setting does, instead of failing the first push hours later.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from .push_credentials import (
    ApnsKey,
    CredentialsError,
    ServiceAccount,
    check_apple_id,
    check_topic,
)


def _fail(name: str, problem: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"Environment variable {name}: {problem}")


def _setting(name: str) -> str | None:
    value = getattr(settings, name, None)
    return None if value is None else str(value)


def _check(name: str, check: Callable[[], object]) -> None:
    try:
        check()
    except CredentialsError as exc:
        raise _fail(name, str(exc)) from None


def check_fcm() -> None:
    path = _setting("FCM_CREDENTIALS_FILE")
    if path is None:
        return
    _check("FCM_CREDENTIALS_FILE", lambda: ServiceAccount.from_file(Path(path)))
    if _setting("FCM_PROJECT_ID") is None:
        raise _fail("FCM_PROJECT_ID", "must be set: the credentials file names no project_id")


def check_apns() -> None:
    path = _setting("APNS_KEY_FILE")
    if path is None:  # the settings have made sure the APNs variables come all or none
        return
    key_id, team_id = str(_setting("APNS_KEY_ID")), str(_setting("APNS_TEAM_ID"))
    _check("APNS_KEY_ID", lambda: check_apple_id(key_id, "key id"))
    _check("APNS_TEAM_ID", lambda: check_apple_id(team_id, "team id"))
    _check("APNS_TOPIC", lambda: check_topic(str(_setting("APNS_TOPIC"))))
    _check("APNS_KEY_FILE", lambda: ApnsKey.from_file(Path(path), key_id, team_id))


def check_push_credentials() -> None:
    """Raise ``ImproperlyConfigured`` for the first unusable push credential."""
    check_fcm()
    check_apns()
