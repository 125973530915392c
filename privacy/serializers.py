"""Request and response bodies of the account deletion and data export endpoints."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import GameStatus, SeatKind
from games.serializers.moves import MoveSerializer
from games.serializers.score import ScoreSheetSerializer
from notifications.serializers import NotificationSerializer, PreferencesSerializer
from privacy.models import ExportStatus
from ttr_service.config.languages import LANGUAGES
from ttr_service.http.strict import StrictSerializer

# As login reads a password: a longer one is no account's.
PASSWORD_MAX_LENGTH = 128


class DeletionRequestSerializer(StrictSerializer):
    password = serializers.CharField(
        max_length=PASSWORD_MAX_LENGTH,
        required=False,
        help_text="The account's password: required when it has one. Wrong: 403 "
        "`CURRENT_PASSWORD_WRONG`; missing: 400 `DELETION_NOT_CONFIRMED`.",
    )
    confirm = serializers.ChoiceField(
        choices=["DELETE"],
        required=False,
        help_text="`DELETE`: the confirmation of an account without a password (it signs "
        "in with Apple or Google only); ignored when the account has a password.",
    )


class DeletionSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=["scheduled", "erasing"],
        help_text="`erasing`: erased now, right after this answer (no grace period); "
        "`scheduled`: erased at `erase_at` unless you sign in again before.",
    )
    erase_at = serializers.DateTimeField(help_text="When the account is (or was) erased.")


class ExportSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=ExportStatus.choices,
        help_text="`pending` (being built), `ready` (download it, once), `downloaded`, "
        "`expired` (not downloaded in time) or `failed`.",
    )
    created_at = serializers.DateTimeField(help_text="When it was asked for.")
    ready_at = serializers.DateTimeField(allow_null=True, help_text="When it was built.")
    expires_at = serializers.DateTimeField(
        allow_null=True, help_text="Until when it may be downloaded (once)."
    )
    download = serializers.URLField(
        allow_null=True, help_text="Where to download it while it is `ready`; null otherwise."
    )


class ArchiveProfileSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField(help_text="The account's e-mail; empty without one.")
    verified_email = serializers.CharField(allow_null=True)
    email_verified_at = serializers.DateTimeField(allow_null=True)
    pending_email = serializers.CharField(
        allow_null=True, help_text="An address waiting for its code."
    )
    has_password = serializers.BooleanField()
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)


class ArchiveSocialSerializer(serializers.Serializer[Any]):
    invitations_from_friends_only = serializers.BooleanField()


class ArchiveSettingsSerializer(serializers.Serializer[Any]):
    notifications = PreferencesSerializer()
    social = ArchiveSocialSerializer()
    language = serializers.ChoiceField(
        choices=LANGUAGES,
        allow_null=True,
        help_text="The language chosen for the account (`GET /auth/me`); null: none.",
    )


class ArchivePlayerSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    since = serializers.DateTimeField()


class ArchiveAskedSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(help_text="The other player.")
    at = serializers.DateTimeField()


class ArchiveFriendRequestsSerializer(serializers.Serializer[Any]):
    sent = ArchiveAskedSerializer(many=True)
    received = ArchiveAskedSerializer(many=True, help_text="Those shown to the account.")


class ArchiveSeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=SeatKind.choices)
    username = serializers.CharField(allow_null=True)
    ai_level = serializers.CharField(allow_null=True)


class ArchiveOwnSeatSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=SeatKind.choices)
    joined_at = serializers.DateTimeField(allow_null=True)
    ai_controlled = serializers.BooleanField()


class ArchiveGameSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    board = serializers.CharField()
    options = serializers.DictField(child=serializers.CharField())
    status = serializers.ChoiceField(choices=GameStatus.choices)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    players = ArchiveSeatSerializer(many=True)
    result = ScoreSheetSerializer(allow_null=True)
    seat = ArchiveOwnSeatSerializer(help_text="The account's own seat.")
    moves = MoveSerializer(
        many=True, help_text="The seat's own moves, as the seat saw them while playing."
    )


class ArchiveRatingSerializer(serializers.Serializer[Any]):
    board = serializers.CharField()
    rating = serializers.FloatField()
    rated_games = serializers.IntegerField()
    rated_wins = serializers.IntegerField()


class ArchiveStatisticsSerializer(serializers.Serializer[Any]):
    board = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    total_score = serializers.IntegerField()
    tickets_completed = serializers.IntegerField()
    tickets_failed = serializers.IntegerField()
    longest_path_bonuses = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    last_played = serializers.DateTimeField(allow_null=True)


class ArchiveVacationSerializer(serializers.Serializer[Any]):
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()


class ArchiveDeviceSerializer(serializers.Serializer[Any]):
    platform = serializers.CharField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    active = serializers.BooleanField()


class ArchiveWebhookSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.CharField())
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class ArchiveIdentitySerializer(serializers.Serializer[Any]):
    provider = serializers.CharField(help_text="`apple` or `google`.")
    linked_at = serializers.DateTimeField()
    last_used = serializers.DateTimeField(allow_null=True)


class ArchiveChatMessageSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(help_text="The game's id.")
    room = serializers.CharField(help_text="`players` or `spectators`.")
    seat = serializers.IntegerField(allow_null=True, help_text="Null in the spectators' room.")
    text = serializers.CharField(allow_null=True, help_text="What was typed; null for a quick one.")
    quick = serializers.CharField(allow_null=True, help_text="A quick message's code, or null.")
    at = serializers.DateTimeField()
    hidden = serializers.BooleanField(help_text="Hidden by a moderator.")


class ArchiveSerializer(serializers.Serializer[Any]):
    """The archive a download gives (``privacy/archive.py`` gathers it)."""

    format = serializers.CharField(help_text="`ttr-account-export`.")
    format_version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    profile = ArchiveProfileSerializer()
    settings = ArchiveSettingsSerializer()
    friends = ArchivePlayerSerializer(many=True)
    friend_requests = ArchiveFriendRequestsSerializer()
    blocks = ArchivePlayerSerializer(many=True, help_text="The players the account blocks.")
    games = ArchiveGameSerializer(many=True, help_text="Each game the account sat in.")
    ratings = ArchiveRatingSerializer(many=True)
    statistics = ArchiveStatisticsSerializer(many=True)
    vacations = ArchiveVacationSerializer(many=True)
    notifications = NotificationSerializer(many=True)
    devices = ArchiveDeviceSerializer(many=True, help_text="Without their push tokens.")
    webhooks = ArchiveWebhookSerializer(many=True, help_text="Without their secrets.")
    identities = ArchiveIdentitySerializer(
        many=True, help_text="Apple or Google sign-ins: never a token."
    )
    chat_messages = ArchiveChatMessageSerializer(
        many=True, help_text="The chat messages the account wrote, oldest first."
    )
