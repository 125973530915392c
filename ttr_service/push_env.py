"""Push settings: which transports, and the FCM and APNs credentials they need.

The credentials files are read and checked at startup (the key must load and be of the
right kind), so a deployment with a bad file does not start instead of failing its first
push. Variables of a transport that is not chosen are still checked when they are set.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from notifications.push_credentials import (
    ApnsKey,
    CredentialsError,
    ServiceAccount,
    check_apple_id,
    check_topic,
)
from ttr_service import env

NATIVE = ("fcm", "apns")
_PROJECT_ID = re.compile(r"[a-z0-9][a-z0-9.:\-]*")


def _fail(name: str, problem: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"Environment variable {name}: {problem}")


def native_platforms(value: str) -> list[str] | None:
    """``fcm``, ``apns`` or ``fcm,apns`` as a list; None for any other value."""
    names = [name.strip() for name in value.split(",")]
    if not all(name in NATIVE for name in names):
        return None
    if len(set(names)) != len(names):
        raise _fail("PUSH_TRANSPORT", f"a platform is named twice in {value!r}")
    return names


def fcm_settings(chosen: bool) -> dict[str, Any]:
    path = env.get_str("FCM_CREDENTIALS_FILE")
    project_id = env.get_str("FCM_PROJECT_ID")
    if project_id is not None and not _PROJECT_ID.fullmatch(project_id):
        raise _fail("FCM_PROJECT_ID", f"expected a Firebase project id; got {project_id!r}")
    if path is None:
        if chosen:
            raise _fail(
                "FCM_CREDENTIALS_FILE",
                "must name a service-account JSON file when PUSH_TRANSPORT includes fcm",
            )
        return {"FCM_CREDENTIALS_FILE": None, "FCM_PROJECT_ID": project_id}
    try:
        account = ServiceAccount.from_file(Path(path))
    except CredentialsError as exc:
        raise _fail("FCM_CREDENTIALS_FILE", str(exc)) from None
    project_id = project_id or account.project_id
    if project_id is None:
        raise _fail("FCM_PROJECT_ID", "must be set: the credentials file names no project_id")
    return {"FCM_CREDENTIALS_FILE": path, "FCM_PROJECT_ID": project_id}


def apns_settings(chosen: bool) -> dict[str, Any]:
    names = ("APNS_KEY_FILE", "APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC")
    values = {name: env.get_str(name) for name in names}
    sandbox = env.get_bool("APNS_USE_SANDBOX", default=False)
    if chosen or any(values.values()):
        for name in names:
            if values[name] is None:
                why = "PUSH_TRANSPORT includes apns" if chosen else "other APNS_ variables are"
                raise _fail(name, f"must be set when {why}")
        checks = (
            ("APNS_KEY_ID", lambda: check_apple_id(str(values["APNS_KEY_ID"]), "key id")),
            ("APNS_TEAM_ID", lambda: check_apple_id(str(values["APNS_TEAM_ID"]), "team id")),
            ("APNS_TOPIC", lambda: check_topic(str(values["APNS_TOPIC"]))),
            (
                "APNS_KEY_FILE",
                lambda: ApnsKey.from_file(
                    Path(str(values["APNS_KEY_FILE"])),
                    str(values["APNS_KEY_ID"]),
                    str(values["APNS_TEAM_ID"]),
                ),
            ),
        )
        for name, check in checks:
            try:
                check()
            except CredentialsError as exc:
                raise _fail(name, str(exc)) from None
    return {**values, "APNS_USE_SANDBOX": sandbox}
