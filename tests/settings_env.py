"""Settings read from a chosen environment, in a fresh interpreter.

The settings are read once per process, so each case runs Python again with the variables
under test removed from this process's environment and then set as the case asks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SETUP = "import django; django.setup()\n"


def run(
    args: list[str], unset: Iterable[str], **variables: str
) -> subprocess.CompletedProcess[str]:
    """``python *args`` in the checkout, without the ``unset`` variables, with ``variables``."""
    drop = set(unset)
    environment = {k: v for k, v in os.environ.items() if k not in drop}
    environment["DJANGO_SETTINGS_MODULE"] = "ttr_service.settings"
    environment.update(variables)
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def run_setup(
    report: str, unset: Iterable[str], **variables: str
) -> subprocess.CompletedProcess[str]:
    """Set Django up, then run ``report`` (code that prints one JSON object)."""
    return run(["-c", SETUP + report], unset, **variables)


def printed(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The JSON object a successful run printed last."""
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return data
