"""The words of a notification on channels that show text (email, push)."""

from __future__ import annotations

from typing import Any

from .models import Kind, Notification

_TITLES = {
    Kind.YOUR_TURN: "It is your turn",
    Kind.DEADLINE_APPROACHING: "Your turn's deadline is near",
    Kind.TIMED_OUT: "Your turn timed out",
    Kind.SEAT_TAKEN_OVER: "The AI took over your seat",
    Kind.INVITATION: "You are invited to a game",
    Kind.GAME_STARTED: "Your game has started",
    Kind.GAME_OVER: "Your game is over",
    Kind.FRIEND_REQUEST: "You have a friend request",
    Kind.FRIEND_ACCEPTED: "Your friend request was accepted",
    Kind.EXPORT_READY: "Your data export is ready to download",
    Kind.MATCH_FOUND: "Your quick match found a game",
    Kind.REMATCH_OFFERED: "A rematch is asked for",
    Kind.REMATCH_DECLINED: "The rematch was declined",
    Kind.CHAT_MESSAGE: "New messages at your table",
}


def title(notification: Notification) -> str:
    text = _TITLES[Kind(notification.kind)]
    if notification.game_id is not None:
        text += f" (game {notification.game_id})"
    return text


def body(notification: Notification) -> str:
    lines = [title(notification) + "."]
    username = notification.data.get("username")
    if username:
        lines.append(f"Player: {username}.")
    deadline = notification.data.get("deadline")
    if deadline:
        lines.append(f"Deadline: {deadline}.")
    return "\n".join(lines)


def payload(notification: Notification) -> dict[str, Any]:
    """The JSON a webhook or a push message carries: public data only."""
    data: dict[str, Any] = {"notification_id": notification.pk, "game_id": notification.game_id}
    data.update(notification.data)
    return {
        "type": notification.kind,
        "timestamp": notification.created_at.isoformat().replace("+00:00", "Z"),
        "data": data,
    }
