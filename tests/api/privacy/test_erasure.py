"""An erased account leaves nothing of itself but what the record of finished games needs.

``test_every_table_that_points_at_a_user_is_classified`` walks every model Django knows
(through ``django.apps``, auto-created many-to-many tables too) for the columns that point
at a user. Each must be named in ``ERASED`` or ``KEPT`` here: a table added later fails
this test until it is classified, and an erased one must hold no row of the user.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import models
from django.utils import timezone

from accounts.blocks import block_create, social_preference_set
from accounts.friends import friend_request_accept, friend_request_send
from accounts.languages import set_preference
from accounts.models import EmailVerification, ProviderIdentity, VerifiedEmail
from chat.models import ChatReport, ChatSuspension, Message, Mute
from games.models import Game, GameStatus, IdempotencyRecord, Move, Seat, Vacation
from matchmaking.models import Rematch, RematchStatus
from matchmaking.rematches import rematch_agree
from matchmaking.seeks import seek_create
from notifications.models import Device, Notification, Preference, WebhookEndpoint
from privacy.erasure import ERASERS, account_erase, erasers
from privacy.exports import export_build, export_request
from ratings.models import PlayerStats, Rating, RatingChange
from ratings.services import game_result_record
from tests.api.games.conftest import create_game
from tests.trust.conftest import finished_game

from .conftest import Person, person, two_player

pytestmark = pytest.mark.django_db

# (table, column): what the erasure does with the rows of that column naming the user.
ERASED = {
    ("auth.User_groups", "user"),
    ("auth.User_user_permissions", "user"),
    ("idempotency.KeyedAnswer", "user"),
    ("accounts.AuthToken", "user"),
    ("accounts.VerifiedEmail", "user"),
    ("accounts.EmailVerification", "user"),
    ("accounts.ProviderIdentity", "user"),
    ("accounts.Friendship", "user_low"),
    ("accounts.Friendship", "user_high"),
    ("accounts.FriendRequest", "sender"),
    ("accounts.FriendRequest", "recipient"),
    ("accounts.Block", "blocker"),
    ("accounts.Block", "blocked"),
    ("accounts.SocialPreference", "user"),
    ("accounts.LanguagePreference", "user"),
    ("games.IdempotencyRecord", "user"),
    ("games.Vacation", "user"),
    ("ratings.PlayerStats", "user"),
    ("ratings.Rating", "user"),
    ("notifications.Notification", "user"),
    ("notifications.WebhookEndpoint", "user"),
    ("notifications.Device", "user"),
    ("notifications.Preference", "user"),
    ("privacy.AccountDeletion", "user"),
    ("privacy.DataExport", "user"),
    ("matchmaking.Seek", "user"),
    ("chat.Message", "sender"),
    ("chat.Mute", "user"),
    ("chat.Mute", "muted"),
    ("chat.ChatReport", "reporter"),
    ("chat.ChatSuspension", "user"),
}
# Kept for the record of games: who sat where, who made the game, how a rated game moved
# each rating. Under the pseudonym, and only for games that are over (or that the AI now
# plays for the seat).
KEPT = {
    ("games.Seat", "user"),
    ("games.Game", "created_by"),
    ("ratings.RatingChange", "user"),
    # Who declined the rematch of a finished game.
    ("matchmaking.Rematch", "declined_by"),
    # What a staff member did in the admin (hid a message, suspended a player's chat): the
    # moderation's record.
    ("admin.LogEntry", "user"),
}


def _user_columns() -> set[tuple[str, str]]:
    user_model = get_user_model()
    found = set()
    for model in apps.get_models(include_auto_created=True):
        for column in model._meta.get_fields():
            if (
                isinstance(column, models.ForeignKey | models.OneToOneField)
                and column.related_model is user_model
            ):
                found.add((model._meta.label, column.name))
    return found


def _rows_of(user: Any) -> dict[tuple[str, str], int]:
    counts = {}
    for label, column in _user_columns():
        model = apps.get_model(label)
        counts[(label, column)] = model._default_manager.filter(**{column: user.pk}).count()
    return counts


def _world(alice: Person, bob: Person, carol: Person, dave: Person) -> dict[str, int]:
    """Alice with a row in every table that can name her, beside her friends' own (bob was
    made before her, carol after, so their friendships name her on either side)."""
    user = alice.user
    person("erin")
    fay = person("fay")
    games = {
        "finished": finished_game(alice, bob),  # type: ignore[arg-type]
        "running": two_player(alice, bob, timeout_policy="forfeit"),
        "own_lobby": create_game(alice.client)["id"],
        "joined_lobby": create_game(
            bob.client, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}]
        )["id"],
        "invited_lobby": create_game(
            carol.client,
            seats=[{"type": "creator"}, {"type": "invite", "username": "alice"}, {"type": "open"}],
        )["id"],
    }
    assert alice.client.post(f"/api/v1/games/{games['joined_lobby']}/join").status_code == 200
    assert game_result_record(games["finished"])
    VerifiedEmail.objects.create(user=user, address="alice@ex.org", verified_at=timezone.now())
    EmailVerification.objects.create(user=user, address="new@ex.org")
    ProviderIdentity.objects.create(user=user, provider="apple", subject="alice-sub")
    friend_request_accept(bob.user, friend_request_send(alice.user, "bob").pk)
    friend_request_accept(alice.user, friend_request_send(carol.user, "alice").pk)
    friend_request_send(alice.user, "erin")
    friend_request_send(fay.user, "alice")
    block_create(alice.user, "dave")
    block_create(dave.user, "alice")
    social_preference_set(user, invitations_from_friends_only=True)
    set_preference(user, "el")
    Vacation.objects.create(
        user=user, starts_at=timezone.now() - timedelta(days=3), ends_at=timezone.now()
    )
    IdempotencyRecord.objects.create(user=user, key="k", fingerprint="f")
    keyed = alice.client.patch(
        "/api/v1/social-settings",
        {"invitations_from_friends_only": True},
        format="json",
        HTTP_IDEMPOTENCY_KEY="alice-key",
    )
    assert keyed.status_code == 200
    Notification.objects.create(user=user, kind="your_turn", game_id=games["running"])
    WebhookEndpoint.objects.create(user=user, url="https://hooks.ex.org/a", secret="whsec_A")
    Device.objects.create(user=user, platform="fcm", token="alice-device")
    Preference.objects.create(user=user)
    group = Group.objects.create(name="testers")
    user.groups.add(group)
    user.user_permissions.add(Permission.objects.first())
    export_build(export_request(user).pk)
    seek_create(user, board="europe", players_min=2, players_max=4, turn_time_limit=60)
    rematch_agree(bob.user, games["finished"])
    # Posted, so bob (away from the chat) is told of it by a notice naming her.
    posted = alice.client.post(
        f"/api/v1/games/{games['running']}/chat", {"room": "players", "text": "hi"}, format="json"
    )
    assert posted.status_code == 201, posted.content
    said = Message.objects.get(pk=posted.json()["id"])
    assert Notification.objects.filter(user=bob.user, kind="chat_message").exists()
    heard = Message.objects.create(game_id=games["finished"], room="players", sender=bob.user)
    Mute.objects.create(user=user, muted=carol.user)
    Mute.objects.create(user=dave.user, muted=user)
    ChatReport.objects.create(message=heard, reporter=user, reason="spam")
    ChatReport.objects.create(message=said, reporter=bob.user, reason="abuse")
    ChatSuspension.objects.create(user=user)
    return games


def _erase(alice: Person, django_capture_on_commit_callbacks: Any, settings: Any) -> None:
    settings.ACCOUNT_DELETION_GRACE_HOURS = 0
    from tests.api import PASSWORD

    with django_capture_on_commit_callbacks(execute=True):
        response = alice.client.post(
            "/api/v1/account/deletion", {"password": PASSWORD}, format="json"
        )
    assert response.status_code == 202, response.content


def test_every_table_that_points_at_a_user_is_classified() -> None:
    unclassified = _user_columns() - ERASED - KEPT
    assert not unclassified, (
        f"Tables naming a user that the erasure does not know of: {sorted(unclassified)}; "
        "add an account_erase to privacy.erasure.ERASERS and classify them here"
    )
    assert len(erasers()) == len(ERASERS)


def test_nothing_of_an_erased_account_remains_but_the_record_of_its_games(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    bob, alice, carol, dave = (person(n) for n in ("bob", "alice", "carol", "dave"))
    games = _world(alice, bob, carol, dave)
    before = _rows_of(alice.user)
    empty = {c for c in ERASED if not before[c]} - {("privacy.AccountDeletion", "user")}
    assert not empty, f"the world has no row of alice in {sorted(empty)}"

    _erase(alice, django_capture_on_commit_callbacks, settings)

    after = _rows_of(alice.user)
    assert {column: n for column, n in after.items() if column in ERASED and n} == {}
    # What is kept is the record of games that are over (or that the AI now plays).
    for seat in Seat.objects.filter(user=alice.user).select_related("game"):
        assert seat.game.status in (GameStatus.FINISHED, GameStatus.CANCELLED) or seat.ai_controlled
    assert set(Game.objects.filter(created_by=alice.user).values_list("status", flat=True)) <= {
        GameStatus.FINISHED,
        GameStatus.CANCELLED,
    }
    assert set(RatingChange.objects.filter(user=alice.user).values_list("game_id", flat=True)) == {
        games["finished"]
    }
    # The lobbies: hers cancelled, her seat in bob's given up, carol's invitation declined.
    assert Game.objects.get(pk=games["own_lobby"]).status == GameStatus.CANCELLED
    for lobby in ("joined_lobby", "invited_lobby"):
        assert Game.objects.get(pk=games[lobby]).status == GameStatus.LOBBY
        assert not Seat.objects.filter(game_id=games[lobby], user=alice.user).exists()
    # The running game (forfeit policy): she forfeited, and with one player left it ended.
    running = Game.objects.get(pk=games["running"])
    assert running.status == GameStatus.FINISHED
    assert running.result["players"][0]["forfeited"] is True
    # Nobody else's notices name her any more; nothing of her name or address is stored.
    user = get_user_model().objects.get(pk=alice.user.pk)
    assert not Notification.objects.filter(data__username="alice").exists()
    assert "alice" not in json.dumps(list(get_user_model().objects.values()), default=str)
    assert user.first_name == user.last_name == "" and user.last_login is None
    assert not user.is_staff and not user.is_superuser
    # Her chat messages went, with bob's report of one; bob's message stays, unreported.
    assert list(Message.objects.values_list("sender_id", flat=True)) == [bob.user.pk]
    assert not ChatReport.objects.exists()
    # The rematch bob asked for can never be agreed by her now: it is declined.
    rematch = Rematch.objects.get(game_id=games["finished"])
    assert (rematch.status, rematch.declined_by_id) == (RematchStatus.DECLINED, alice.user.pk)


def _record(client: Any, game_id: int) -> dict[str, Any]:
    return {
        "game": client.get(f"/api/v1/games/{game_id}").json(),
        "moves": client.get(f"/api/v1/games/{game_id}/moves?limit=500").json(),
        "result": client.get(f"/api/v1/games/{game_id}/result").json(),
        "record": client.get(f"/api/v1/games/{game_id}/record").json(),
    }


def test_the_other_players_games_results_and_ratings_are_unchanged_but_for_the_name(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    alice, bob = person("alice"), person("bob")
    game_id = finished_game(alice, bob)  # type: ignore[arg-type]
    assert game_result_record(game_id)
    seen_before = _record(bob.client, game_id)
    stored_before = Game.objects.filter(pk=game_id).values("state", "result", "version").get()
    moves_before = list(Move.objects.filter(game_id=game_id).values().order_by("number"))
    bob_rating = list(Rating.objects.filter(user=bob.user).values())
    bob_changes = list(RatingChange.objects.filter(user=bob.user).values())
    stats_before = bob.client.get("/api/v1/players/bob/stats").json()

    _erase(alice, django_capture_on_commit_callbacks, settings)

    pseudonym = get_user_model().objects.get(pk=alice.user.pk).username
    seen_after = _record(bob.client, game_id)
    renamed = json.loads(json.dumps(seen_before).replace('"alice"', json.dumps(pseudonym)))
    assert seen_after["moves"] == renamed["moves"]
    assert seen_after["result"] == renamed["result"]
    assert seen_after["record"] == renamed["record"]
    # The view shows the new name from a new version (no view kept of the old name is
    # served again); nothing else of it changed.
    assert seen_after["game"]["version"] == seen_before["game"]["version"] + 1
    for part in ("seats", "state", "created_by", "status", "result"):
        assert seen_after["game"].get(part) == renamed["game"].get(part), part
    stored_after = Game.objects.filter(pk=game_id).values("state", "result", "version").get()
    assert stored_after == {**stored_before, "version": stored_before["version"] + 1}
    assert list(Move.objects.filter(game_id=game_id).values().order_by("number")) == moves_before
    assert list(Rating.objects.filter(user=bob.user).values()) == bob_rating
    assert list(RatingChange.objects.filter(user=bob.user).values()) == bob_changes
    assert bob.client.get("/api/v1/players/bob/stats").json() == stats_before
    assert pseudonym in json.dumps(seen_after["game"]["seats"])


def test_an_erasure_run_again_changes_nothing(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    alice, bob = person("alice"), person("bob")
    finished_game(alice, bob)  # type: ignore[arg-type]
    _erase(alice, django_capture_on_commit_callbacks, settings)
    erased = get_user_model().objects.filter(pk=alice.user.pk).values().get()

    account_erase(get_user_model().objects.get(pk=alice.user.pk))

    assert get_user_model().objects.filter(pk=alice.user.pk).values().get() == erased


def test_a_game_the_erasure_ended_is_recorded_without_statistics_of_the_erased(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    alice, bob = person("alice"), person("bob")
    game_id = two_player(alice, bob, timeout_policy="forfeit")

    _erase(alice, django_capture_on_commit_callbacks, settings)
    # Its recording runs after the erasure (on a worker, later).
    assert Game.objects.get(pk=game_id).status == GameStatus.FINISHED
    assert game_result_record(game_id)

    assert not PlayerStats.objects.filter(user=alice.user).exists()
    assert not Rating.objects.filter(user=alice.user).exists()
    assert RatingChange.objects.filter(user=alice.user, game_id=game_id).exists()
    assert PlayerStats.objects.get(user=bob.user).wins == 1
    assert Rating.objects.filter(user=bob.user).exists()
