"""docs/api.md's Limits table states the bounds the code enforces."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from accounts.models import TOKEN_NAME_MAX_LENGTH
from accounts.serializers import (
    EMAIL_MAX_LENGTH,
    MAX_PASSWORD_LENGTH,
    MAX_TOKEN_DAYS,
    USERNAME_MAX_LENGTH,
    USERNAME_MIN_LENGTH,
)
from idempotency.keys import KEY_MAX_LENGTH
from notifications.devices import MAX_DEVICES
from notifications.webhooks import MAX_ENDPOINTS
from tests import settings_env
from ttr_service.http.strict import MAX_REPORTED

API_GUIDE = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def limits() -> dict[str, str]:
    """The Limits table: the first cell of each row, and the rest of it."""
    section = API_GUIDE.read_text().split("\n## Limits\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]  # no header
    return {row.split(" | ")[0].removeprefix("| "): row for row in rows}


@pytest.mark.parametrize(
    ("what", "stated"),
    [
        ("Request body", [f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes", "REQUEST_TOO_LARGE"]),
        ("Fields of a body", [f"at most {MAX_REPORTED} rows", "UNKNOWN_FIELD"]),
        ("Username (registration)", [f"{USERNAME_MIN_LENGTH} to {USERNAME_MAX_LENGTH}"]),
        ("Password (registration, login)", [f"at most {MAX_PASSWORD_LENGTH} characters"]),
        ("Email (registration)", [f"at most {EMAIL_MAX_LENGTH} characters"]),
        ("Token name", [f"at most {TOKEN_NAME_MAX_LENGTH} characters"]),
        ("Token lifetime (`expires_in_days`)", [f"1 to {MAX_TOKEN_DAYS} days"]),
        ("`Idempotency-Key`", [f"1 to {KEY_MAX_LENGTH} visible ASCII", "BAD_IDEMPOTENCY_KEY"]),
        ("Bot-only games", ["`MAX_BOT_ONLY_GAMES_PER_USER` (3)", "TOO_MANY_BOT_GAMES"]),
        ("Friends", ["`MAX_FRIENDS_PER_USER` (500)", "FRIEND_LIMIT_REACHED"]),
        (
            "Friend requests sent and pending",
            ["`MAX_PENDING_FRIEND_REQUESTS` (50)", "FRIEND_REQUEST_LIMIT_REACHED"],
        ),
        ("Webhooks", [f"{MAX_ENDPOINTS} per user", "WEBHOOK_LIMIT_REACHED"]),
        ("Push devices", [f"{MAX_DEVICES} active per user", "DEVICE_LIMIT_REACHED"]),
    ],
)
def test_the_limits_table_states_each_bound(what: str, stated: list[str]) -> None:
    row = limits()[what]
    for text in stated:
        assert text in row, (what, text)


@pytest.mark.parametrize(("value", "read"), [(None, 3), ("", 3), ("0", 0), ("12", 12)])
def test_the_bot_only_limit_is_read_from_the_environment(value: str | None, read: int) -> None:
    variables = {} if value is None else {"MAX_BOT_ONLY_GAMES_PER_USER": value}
    result = settings_env.run_setup(
        "import json; from django.conf import settings\n"
        "print(json.dumps(settings.MAX_BOT_ONLY_GAMES_PER_USER))",
        ["MAX_BOT_ONLY_GAMES_PER_USER"],
        **variables,
    )
    assert settings_env.printed(result) == read


@pytest.mark.parametrize("value", ["-1", "three"])
def test_a_bad_bot_only_limit_stops_startup_naming_the_variable(value: str) -> None:
    result = settings_env.run_setup(
        "", ["MAX_BOT_ONLY_GAMES_PER_USER"], MAX_BOT_ONLY_GAMES_PER_USER=value
    )
    assert result.returncode != 0
    assert "MAX_BOT_ONLY_GAMES_PER_USER" in result.stderr
