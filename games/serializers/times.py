"""Times as the API writes them."""

from __future__ import annotations

from datetime import datetime


def when(moment: datetime | None) -> str | None:
    """ISO 8601 with its UTC offset (``2026-11-29T12:00:00+00:00``); None stays None."""
    return moment.isoformat() if moment is not None else None
