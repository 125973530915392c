"""Examples for the OpenAPI schema, written by the endpoints' own serializers from unsaved
rows, so they keep the shape the endpoints answer with. Fixed ids and times keep the
schema stable."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiExample

from accounts.models import Block, FriendRequest, SocialPreference

from .serializers import (
    BlockSerializer,
    FriendRequestSerializer,
    FriendSerializer,
    SocialSettingsSerializer,
)

_AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
_ALICE = User(id=42, username="alice")
_BOB = User(id=43, username="bob")
_CAROL = User(id=44, username="carol")


def _page(results: list[dict[str, Any]]) -> dict[str, Any]:
    return {"count": len(results), "next": None, "previous": None, "results": results}


def _friend(user: User, in_game: bool) -> dict[str, Any]:
    row = {"friend_id": user.pk, "friend_username": user.username, "since": _AT}
    game = 57 if in_game else None
    data: dict[str, Any] = FriendSerializer({**row, "in_game": in_game, "game_id": game}).data
    return data


def _request(sender: User, recipient: User, request_id: int) -> dict[str, Any]:
    request = FriendRequest(id=request_id, sender=sender, recipient=recipient, created_at=_AT)
    data: dict[str, Any] = FriendRequestSerializer(request).data
    return data


def friends() -> OpenApiExample:
    return OpenApiExample(
        "Two friends, one of them playing now",
        value=_page([_friend(_BOB, True), _friend(_CAROL, False)]),
        response_only=True,
    )


def friend_made() -> OpenApiExample:
    return OpenApiExample(
        "A friend from now on",
        value=_friend(_BOB, False),
        response_only=True,
        status_codes=["200"],
    )


def username(who: str) -> OpenApiExample:
    return OpenApiExample(who.title(), value={"username": who}, request_only=True)


def request_sent() -> OpenApiExample:
    return OpenApiExample(
        "A request sent to bob",
        value=_request(_ALICE, _BOB, 12),
        response_only=True,
        status_codes=["201"],
    )


def incoming() -> OpenApiExample:
    return OpenApiExample(
        "A request from carol",
        value=_page([_request(_CAROL, _ALICE, 13)]),
        response_only=True,
    )


def outgoing() -> OpenApiExample:
    return OpenApiExample(
        "A request to bob",
        value=_page([_request(_ALICE, _BOB, 12)]),
        response_only=True,
    )


def _block() -> dict[str, Any]:
    data: dict[str, Any] = BlockSerializer(
        Block(blocker=_ALICE, blocked=_CAROL, created_at=_AT)
    ).data
    return data


def blocks() -> OpenApiExample:
    return OpenApiExample("Carol, blocked", value=_page([_block()]), response_only=True)


def block_made() -> OpenApiExample:
    return OpenApiExample(
        "Carol, blocked",
        value=_block(),
        response_only=True,
        status_codes=["200", "201"],
    )


def social_settings(response: bool) -> OpenApiExample:
    value = SocialSettingsSerializer.of(
        SocialPreference(user=_ALICE, invitations_from_friends_only=True)
    )
    if response:
        return OpenApiExample("Invitations from friends only", value=value, response_only=True)
    return OpenApiExample("Invitations from friends only", value=value, request_only=True)
