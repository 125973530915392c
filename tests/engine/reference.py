"""The verified reference files in ``shared/reference``, which the board data is checked
against entry by entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference"
COLOR_ALIASES = {"pink": "purple"}


def reference(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((REFERENCE / f"{name}.json").read_text("utf-8"))
    return data


def color(name: str) -> str:
    return COLOR_ALIASES.get(name, name)
