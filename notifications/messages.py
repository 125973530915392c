"""The words of a notification on channels that show text (email, push).

They are made when a delivery is sent, not stored: each channel renders them in the
recipient's language (``in_recipients_language``), their stored choice or else English,
since no request of theirs is at hand in the worker. The in-app list and the webhooks
carry no words, only the kind and its public data."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.languages import language_for

from .models import Kind, Notification

_TITLES = {
    Kind.YOUR_TURN: gettext_lazy("It is your turn"),
    Kind.DEADLINE_APPROACHING: gettext_lazy("Your turn's deadline is near"),
    Kind.TIMED_OUT: gettext_lazy("Your turn timed out"),
    Kind.SEAT_TAKEN_OVER: gettext_lazy("The AI took over your seat"),
    Kind.INVITATION: gettext_lazy("You are invited to a game"),
    Kind.GAME_STARTED: gettext_lazy("Your game has started"),
    Kind.GAME_OVER: gettext_lazy("Your game is over"),
    Kind.FRIEND_REQUEST: gettext_lazy("You have a friend request"),
    Kind.FRIEND_ACCEPTED: gettext_lazy("Your friend request was accepted"),
    Kind.EXPORT_READY: gettext_lazy("Your data export is ready to download"),
    Kind.MATCH_FOUND: gettext_lazy("Your quick match found a game"),
    Kind.REMATCH_OFFERED: gettext_lazy("A rematch is asked for"),
    Kind.REMATCH_DECLINED: gettext_lazy("The rematch was declined"),
    Kind.CHAT_MESSAGE: gettext_lazy("New messages at your table"),
}


def in_recipients_language(notification: Notification) -> translation.override:
    """``with in_recipients_language(n):`` renders ``n``'s words for its recipient."""
    return translation.override(language_for(notification.user))


def title(notification: Notification) -> str:
    text = str(_TITLES[Kind(notification.kind)])
    if notification.game_id is not None:
        return _("%(title)s (game %(game)d)") % {"title": text, "game": notification.game_id}
    return text


def body(notification: Notification) -> str:
    lines = [_("%(title)s.") % {"title": title(notification)}]
    username = notification.data.get("username")
    if username:
        lines.append(_("Player: %(username)s.") % {"username": username})
    deadline = notification.data.get("deadline")
    if deadline:
        lines.append(_("Deadline: %(deadline)s.") % {"deadline": deadline})
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
