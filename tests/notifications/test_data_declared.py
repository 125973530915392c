"""Every detail a game notice stores in `data` is declared in the schema's NotificationData:
the keys of the dictionaries notifications/game_notices.py builds, read from its source."""

from __future__ import annotations

import ast
from pathlib import Path

import notifications.game_notices
from notifications.serializers import NotificationDataSerializer


def test_every_key_a_notice_stores_is_declared() -> None:
    source = Path(notifications.game_notices.__file__).read_text()
    keys = {
        key.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Dict)
        for key in node.keys
        if isinstance(key, ast.Constant) and isinstance(key.value, str)
    }
    assert {"game_id", "board", "seat", "deadline"} <= keys
    assert keys <= set(NotificationDataSerializer().fields)


def test_a_notice_shows_the_keys_it_has_and_no_others() -> None:
    shown = NotificationDataSerializer({"game_id": 3, "board": "usa", "seat": 1}).data
    assert shown == {"game_id": 3, "board": "usa", "seat": 1}
