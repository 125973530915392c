"""What an account's data export holds: everything the service keeps of the account, as
its owner may see it.

The profile (username, e-mail addresses, when it joined, its settings), its friends, friend
requests and blocks, every game it sat in (the board, the players, the result, its own
seat and its own moves from the move log, as that seat saw them while playing: never
another seat's hidden cards, even once the game is over), its ratings, vacations,
notifications, push devices and webhooks (without their tokens and secrets), its Apple
or Google identities (the provider and dates, never a token), and what the apps above this
one add (``SECTIONS``): the chat messages it wrote.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils.module_loading import import_string

from accounts.languages import preferred_language
from accounts.models import Block, FriendRequest, Friendship, ProviderIdentity, VerifiedEmail
from accounts.relations import social_preference_of
from games.models import Move, Seat, Vacation
from games.serializers.moves import moves_of_seat
from notifications.models import Device, Notification, WebhookEndpoint
from notifications.preferences import preferences_of
from privacy.serializers import ArchiveSerializer
from ratings.models import PlayerStats, Rating

FORMAT = "ttr-account-export"
FORMAT_VERSION = 1

# Sections of apps that this one may not import (those of its own layer), each by the
# dotted path of a function of the user that returns the section's rows, as the erasers
# are named (privacy.erasure).
SECTIONS: dict[str, str] = {"chat_messages": "chat.erasure.account_export"}


def _at(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _profile(user: User) -> dict[str, Any]:
    verified = VerifiedEmail.objects.filter(user=user).first()
    waiting = getattr(user, "email_verification", None)
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": user.email,
        "verified_email": verified.address if verified else None,
        "email_verified_at": _at(verified.verified_at) if verified else None,
        "pending_email": waiting.address if waiting is not None else None,
        "has_password": user.has_usable_password(),
        "date_joined": _at(user.date_joined),
        "last_login": _at(user.last_login),
    }


def _settings(user: User) -> dict[str, Any]:
    notices = preferences_of(user)
    quiet = notices.quiet_hours
    return {
        "notifications": {
            "channels": notices.channels,
            "quiet_hours": {"start": quiet.start, "end": quiet.end, "timezone": quiet.timezone}
            if quiet
            else None,
        },
        "social": {
            "invitations_from_friends_only": social_preference_of(
                user.pk
            ).invitations_from_friends_only
        },
        "language": preferred_language(user),
    }


def _friends(user: User) -> list[dict[str, Any]]:
    rows = Friendship.objects.filter(Q(user_low=user) | Q(user_high=user))
    rows = rows.select_related("user_low", "user_high").order_by("created_at", "pk")
    return [
        {
            "username": (f.user_high if f.user_low_id == user.pk else f.user_low).get_username(),
            "since": _at(f.created_at),
        }
        for f in rows
    ]


def _friend_requests(user: User) -> dict[str, list[dict[str, Any]]]:
    sent = FriendRequest.objects.filter(sender=user).select_related("recipient")
    # A request its recipient does not see (they block its sender) is not theirs to see.
    received = FriendRequest.objects.filter(recipient=user, hidden=False).select_related("sender")
    return {
        "sent": [
            {"username": r.recipient.get_username(), "at": r.created_at}
            for r in sent.order_by("pk")
        ],
        "received": [
            {"username": r.sender.get_username(), "at": r.created_at}
            for r in received.order_by("pk")
        ],
    }


def _blocks(user: User) -> list[dict[str, Any]]:
    rows = Block.objects.filter(blocker=user).select_related("blocked").order_by("pk")
    return [{"username": b.blocked.get_username(), "since": _at(b.created_at)} for b in rows]


def _game(seat: Seat) -> dict[str, Any]:
    game = seat.game
    players = [
        {
            "seat": s.index,
            "kind": s.kind,
            "username": s.user.get_username() if s.user is not None else None,
            "ai_level": s.ai_level or None,
        }
        for s in game.seats.select_related("user").order_by("index")
    ]
    moves = list(Move.objects.filter(game=game, seat=seat.index).order_by("number"))
    return {
        "id": game.pk,
        "board": game.board,
        "options": game.options,
        "status": game.status,
        "created_at": _at(game.created_at),
        "started_at": _at(game.started_at),
        "finished_at": _at(game.finished_at),
        "players": players,
        "result": game.result,
        "seat": {
            "index": seat.index,
            "kind": seat.kind,
            "joined_at": _at(seat.joined_at),
            "ai_controlled": seat.ai_controlled,
        },
        "moves": moves_of_seat(moves, seat.index),
    }


def _games(user: User) -> list[dict[str, Any]]:
    seats = Seat.objects.filter(user=user).select_related("game").order_by("game_id")
    return [_game(seat) for seat in seats]


def _ratings(user: User) -> dict[str, list[dict[str, Any]]]:
    return {
        "ratings": [
            {
                "board": r.board,
                "rating": r.rating,
                "rated_games": r.rated_games,
                "rated_wins": r.rated_wins,
            }
            for r in Rating.objects.filter(user=user).order_by("board")
        ],
        "statistics": [
            {
                "board": s.board,
                "games": s.games,
                "wins": s.wins,
                "total_score": s.total_score,
                "tickets_completed": s.tickets_completed,
                "tickets_failed": s.tickets_failed,
                "longest_path_bonuses": s.longest_path_bonuses,
                "forfeits": s.forfeits,
                "last_played": _at(s.last_played),
            }
            for s in PlayerStats.objects.filter(user=user).order_by("board")
        ],
    }


def _notices(user: User) -> dict[str, list[Any]]:
    notes = Notification.objects.filter(user=user).order_by("pk")
    devices = Device.objects.filter(user=user).order_by("pk")
    hooks = WebhookEndpoint.objects.filter(user=user).order_by("pk")
    return {
        "notifications": list(notes),
        "devices": [
            {
                "platform": d.platform,
                "name": d.name,
                "created_at": _at(d.created_at),
                "active": d.active,
            }
            for d in devices
        ],
        "webhooks": [
            {
                "name": h.name,
                "url": h.url,
                "events": h.events,
                "active": h.active,
                "created_at": _at(h.created_at),
            }
            for h in hooks
        ],
    }


def archive_of(user: User, now: datetime) -> dict[str, Any]:
    """Everything the service keeps of ``user``, written by ``ArchiveSerializer``."""
    identities = ProviderIdentity.objects.filter(user=user).order_by("provider")
    vacations = Vacation.objects.filter(user=user).order_by("starts_at")
    archive = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "created_at": _at(now),
        "profile": _profile(user),
        "settings": _settings(user),
        "friends": _friends(user),
        "friend_requests": _friend_requests(user),
        "blocks": _blocks(user),
        "games": _games(user),
        **_ratings(user),
        "vacations": [
            {"starts_at": _at(v.starts_at), "ends_at": _at(v.ends_at)} for v in vacations
        ],
        **_notices(user),
        "identities": [
            {"provider": i.provider, "linked_at": _at(i.created), "last_used": _at(i.last_used)}
            for i in identities
        ],
        **{name: import_string(path)(user) for name, path in SECTIONS.items()},
    }
    written: dict[str, Any] = ArchiveSerializer(archive).data
    return written
