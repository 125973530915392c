"""Request and response bodies of the chat endpoints."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.fields import empty

from ttr_service.http.query import QueryParameters
from ttr_service.http.strict import StrictSerializer

from .models import MAX_TEXT, ChatReport, ReportReason, Room
from .quick import QUICK_CODES


class ChatListQuery(QueryParameters):
    room = serializers.ChoiceField(
        choices=Room.choices,
        default=Room.PLAYERS,
        help_text="`players` (the default) or `spectators`. Another value (empty too): "
        "`VALIDATION_ERROR` (`INVALID_CHOICE`).",
    )


class TrimmedText(serializers.CharField):
    """Text trimmed of the white space around it before it is checked (strict bodies take
    other text as sent)."""

    def run_validation(self, data: Any = empty) -> Any:
        return super().run_validation(data.strip() if isinstance(data, str) else data)


class ChatPostSerializer(StrictSerializer):
    room = serializers.ChoiceField(choices=Room.choices, help_text="The room to post in.")
    text = TrimmedText(
        required=False,
        max_length=MAX_TEXT,
        help_text=f"What to say: at most {MAX_TEXT} characters once the spaces around it are "
        "trimmed, not blank; kept as sent, never read as HTML. Send `text` or `quick`, not "
        "both.",
    )
    quick = serializers.ChoiceField(
        choices=QUICK_CODES,
        required=False,
        help_text="The code of a quick message (GET /chat/quick-messages), shown to each "
        "reader in their language. Send `text` or `quick`, not both.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("text" in attrs) == ("quick" in attrs):
            raise serializers.ValidationError(_("Send either `text` or `quick`, not both."))
        return attrs


class ChatMessageSerializer(serializers.Serializer[Any]):
    """A chat message as one reader sees it (written by ``chat.rendering.message_for``)."""

    id = serializers.IntegerField()
    game = serializers.IntegerField(help_text="The game's id.")
    room = serializers.ChoiceField(choices=Room.choices)
    sender = serializers.CharField(help_text="The sender's username.")
    seat = serializers.IntegerField(
        allow_null=True, help_text="The sender's seat when they posted; null for spectators."
    )
    text = serializers.CharField(
        allow_null=True, help_text="What the sender typed; null for a quick message."
    )
    quick = serializers.ChoiceField(
        choices=QUICK_CODES,
        allow_null=True,
        help_text="The quick message's code; null for typed text.",
    )
    body = serializers.CharField(
        help_text="What the reader sees: the text, or the quick message in the reader's language."
    )
    at = serializers.DateTimeField(help_text="When it was posted.")


class QuickMessageSerializer(serializers.Serializer[Any]):
    code = serializers.ChoiceField(choices=QUICK_CODES)
    text = serializers.CharField(help_text="The message in the caller's language.")


class ReportCreateSerializer(StrictSerializer):
    reason = serializers.ChoiceField(choices=ReportReason.choices, help_text="Why.")
    note = TrimmedText(
        required=False,
        allow_blank=True,
        max_length=MAX_TEXT,
        help_text=f"Anything the moderators should know; at most {MAX_TEXT} characters.",
    )


class ReportSerializer(serializers.ModelSerializer[ChatReport]):
    message = serializers.IntegerField(source="message_id", help_text="The message's id.")

    class Meta:
        model = ChatReport
        fields = ["id", "message", "reason", "note", "created_at"]
        read_only_fields = fields


class MuteSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(source="muted.username", help_text="The muted player.")
    since = serializers.DateTimeField(source="created_at", help_text="When they were muted.")
