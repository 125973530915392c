"""Every detail a notice stores in `data` is declared in the schema's NotificationData: the
keys of the dictionaries notifications/game_notices.py and friend_notices.py build, read
from their source."""

from __future__ import annotations

import ast
from pathlib import Path

import notifications.friend_notices
import notifications.game_notices
from notifications.serializers import NotificationDataSerializer


def _keys(module_file: str | None) -> set[str]:
    assert module_file is not None
    return {
        key.value
        for node in ast.walk(ast.parse(Path(module_file).read_text()))
        if isinstance(node, ast.Dict)
        for key in node.keys
        if isinstance(key, ast.Constant) and isinstance(key.value, str)
    }


def test_every_key_a_notice_stores_is_declared() -> None:
    games = _keys(notifications.game_notices.__file__)
    friends = _keys(notifications.friend_notices.__file__)
    assert {"game_id", "board", "seat", "deadline"} <= games
    assert {"friend_request_id", "username"} <= friends
    assert games | friends <= set(NotificationDataSerializer().fields)


def test_a_notice_shows_the_keys_it_has_and_no_others() -> None:
    shown = NotificationDataSerializer({"game_id": 3, "board": "usa", "seat": 1}).data
    assert shown == {"game_id": 3, "board": "usa", "seat": 1}
