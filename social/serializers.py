"""Request and response bodies of the friends and blocks endpoints."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounts.models import Block, FriendRequest, SocialPreference
from ttr_service.http.strict import StrictSerializer

# As login reads a username: matched ignoring case; longer names are no account's.
USERNAME_MAX_LENGTH = 150


class UsernameSerializer(StrictSerializer):
    username = serializers.CharField(
        max_length=USERNAME_MAX_LENGTH,
        help_text="The player's username, matched ignoring case. No such player: 404 "
        "`PLAYER_NOT_FOUND`.",
    )


class PlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The player's user id.")
    username = serializers.CharField()


class FriendSerializer(serializers.Serializer[Any]):
    """A friend as their friend sees them."""

    id = serializers.IntegerField(source="friend_id", help_text="The friend's user id.")
    username = serializers.CharField(source="friend_username")
    since = serializers.DateTimeField(help_text="When the two became friends.")
    in_game = serializers.BooleanField(
        help_text="Whether the friend is seated in a game being played now."
    )
    game_id = serializers.IntegerField(
        allow_null=True,
        help_text="That game, which anyone may watch (`GET /games/{id}`, its event stream); "
        "of several, the one that moved last. Null when `in_game` is false.",
    )


class FriendPageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = FriendSerializer(many=True)


class FriendRequestSerializer(serializers.ModelSerializer[FriendRequest]):
    sender = PlayerSerializer(help_text="Who sent it.")
    recipient = PlayerSerializer(help_text="Who it asks.")
    created_at = serializers.DateTimeField(help_text="When it was sent.")

    class Meta:
        model = FriendRequest
        fields = ["id", "sender", "recipient", "created_at"]
        read_only_fields = fields


class FriendRequestPageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = FriendRequestSerializer(many=True)


class BlockSerializer(serializers.ModelSerializer[Block]):
    """A player the caller blocks."""

    id = serializers.IntegerField(source="blocked_id", help_text="The blocked player's user id.")
    username = serializers.CharField(source="blocked.username")
    since = serializers.DateTimeField(source="created_at", help_text="When the block was made.")

    class Meta:
        model = Block
        fields = ["id", "username", "since"]
        read_only_fields = fields


class BlockPageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = BlockSerializer(many=True)


class SocialSettingsSerializer(StrictSerializer):
    invitations_from_friends_only = serializers.BooleanField(
        help_text="Only friends may invite the caller into a game; anyone else's invitation "
        "is refused with `NOT_INVITABLE`, as one from a player the caller blocks is."
    )

    @classmethod
    def of(cls, preference: SocialPreference) -> dict[str, Any]:
        data: dict[str, Any] = cls(preference).data
        return data
