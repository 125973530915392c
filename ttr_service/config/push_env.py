"""Push settings: which transports, and the variables of the FCM and APNs credentials.

This reads the variables and checks what can be checked from their values alone: a
platform named twice, a malformed project id, a chosen transport without its credentials,
APNs variables set only in part. What the credentials files hold (a key that loads and is
of the right kind, a project the service account names) is the notifications app's to
check; it does so when the app is loaded (``notifications.push_checks``), so a deployment
with a bad file still does not start.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from ttr_service.config import env

NATIVE = ("fcm", "apns")
APNS_NAMES = ("APNS_KEY_FILE", "APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC")
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


def _project_in(path: str) -> str | None:
    """The ``project_id`` a service-account file names, or None: a file that cannot be
    read, or is no JSON object, is reported by the notifications app's startup check."""
    try:
        data = json.loads(Path(path).read_bytes())
    except (OSError, ValueError):
        return None
    project_id = data.get("project_id") if isinstance(data, dict) else None
    return project_id if isinstance(project_id, str) and project_id else None


def fcm_settings(chosen: bool) -> dict[str, Any]:
    """``FCM_CREDENTIALS_FILE`` and ``FCM_PROJECT_ID``; the project comes from the file
    unless the variable names one."""
    path = env.get_str("FCM_CREDENTIALS_FILE")
    project_id = env.get_str("FCM_PROJECT_ID")
    if project_id is not None and not _PROJECT_ID.fullmatch(project_id):
        raise _fail("FCM_PROJECT_ID", f"expected a Firebase project id; got {project_id!r}")
    if path is None and chosen:
        raise _fail(
            "FCM_CREDENTIALS_FILE",
            "must name a service-account JSON file when PUSH_TRANSPORT includes fcm",
        )
    if path is not None and project_id is None:
        project_id = _project_in(path)
    return {"FCM_CREDENTIALS_FILE": path, "FCM_PROJECT_ID": project_id}


def apns_settings(chosen: bool) -> dict[str, Any]:
    """The ``APNS_`` variables: all of them or none, and all of them if apns is chosen."""
    values = {name: env.get_str(name) for name in APNS_NAMES}
    sandbox = env.get_bool("APNS_USE_SANDBOX", default=False)
    if chosen or any(values.values()):
        why = "PUSH_TRANSPORT includes apns" if chosen else "other APNS_ variables are"
        for name in APNS_NAMES:
            if values[name] is None:
                raise _fail(name, f"must be set when {why}")
    return {**values, "APNS_USE_SANDBOX": sandbox}
