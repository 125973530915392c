"""What players are told of their seeks and rematches: in-app, on their event stream and by
push (``notifications.notification_send``), in the transaction of the change, each once (a
dedupe key)."""

from __future__ import annotations

from django.contrib.auth.models import User

from notifications.services import notification_send

from .models import Rematch, Seek


def match_found(user: User, seek: Seek) -> None:
    """The seek found its game (the user stream adds a ``seek`` event with its state)."""
    notification_send(
        user,
        "match_found",
        game_id=seek.game_id,
        data={
            "game_id": seek.game_id,
            "board": seek.board,
            "seek_id": seek.pk,
            "seek_status": seek.status,
        },
        dedupe_key=f"seek:{seek.pk}:matched",
    )


def rematch_offered(users: list[User], rematch: Rematch, by: User) -> None:
    """``by`` asks for a rematch: the game's other players are told, once per rematch."""
    for user in users:
        notification_send(
            user,
            "rematch_offered",
            game_id=rematch.game_id,
            data={"rematch_of": rematch.game_id, "username": by.get_username()},
            dedupe_key=f"rematch:{rematch.pk}:offered",
        )


def rematch_declined(users: list[User], rematch: Rematch, by: User) -> None:
    for user in users:
        notification_send(
            user,
            "rematch_declined",
            game_id=rematch.game_id,
            data={"rematch_of": rematch.game_id, "username": by.get_username()},
            dedupe_key=f"rematch:{rematch.pk}:declined",
        )
