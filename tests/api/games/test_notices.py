"""What players are told as their games move on (in-app notifications)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.commands import deadlines
from notifications.models import Notification
from notifications.tasks import warn_deadlines

from .conftest import create_game, keep_all_initial

pytestmark = pytest.mark.django_db


def _kinds(user):
    return [n.kind for n in Notification.objects.filter(user=user).order_by("id")]


def test_an_invitation_and_the_start_are_announced(creator, invitee, users):
    game = create_game(
        creator, seats=[{"type": "creator"}, {"type": "invite", "username": "invitee"}]
    )
    assert _kinds(users["invitee"]) == ["invitation"]
    note = Notification.objects.get(user=users["invitee"])
    assert note.data == {
        "game_id": game["id"],
        "board": "europe",
        "seat": 1,
        "invited_by": "creator",
    }
    invitee.post(f"/api/v1/games/{game['id']}/invitation/accept", {}, format="json")
    assert "game_started" in _kinds(users["invitee"])
    # Both choose their tickets at once: each is told it is their decision.
    assert _kinds(users["creator"]).count("your_turn") == 1


def test_your_turn_is_sent_once_when_the_decision_becomes_yours(
    two_player_game, creator, opponent, users
):
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    first = "creator" if two_player_game["state"]["first_seat"] == 0 else "opponent"
    turns = list(Notification.objects.filter(user=users[first], kind="your_turn").order_by("id"))
    assert len(turns) == 2  # the initial choice, then the first turn
    assert turns[-1].data["pending"] == "turn_action"
    keys = {k for n in Notification.objects.all() for k in n.data}
    assert keys <= {"game_id", "board", "seat", "pending", "deadline", "invited_by"}


def test_a_timeout_and_the_end_are_announced(creator, opponent, users):
    game = create_game(creator, first_seat=0, turn_time_limit=3600, timeout_policy="forfeit")
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    keep_all_initial(game["id"], creator, opponent)
    with time_machine.travel(timezone.now() + timedelta(hours=2), tick=False):
        deadlines.deadlines_sweep()
    assert "timed_out" in _kinds(users["creator"])
    over = Notification.objects.get(user=users["opponent"], kind="game_over")
    assert over.data["place"] == 1
    assert Notification.objects.get(user=users["creator"], kind="game_over").data["place"] == 2


def test_a_deadline_warning_is_sent_once_per_window(creator, opponent, users):
    game = create_game(creator, first_seat=0, turn_time_limit=7200)
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    keep_all_initial(game["id"], creator, opponent)
    with time_machine.travel(timezone.now() + timedelta(minutes=70), tick=False):
        assert warn_deadlines() == 1
        assert warn_deadlines() == 0
    warnings = Notification.objects.filter(user=users["creator"], kind="deadline_approaching")
    # The 24 h and the 1 h windows both contain the deadline; only the 1 h one is shorter
    # than the game's two hours a move, so only it warns.
    assert [n.data["window_seconds"] for n in warnings] == [3600]
    assert not Notification.objects.filter(user=users["opponent"], kind="deadline_approaching")


def test_a_move_reaches_the_next_players_channels_as_their_settings_say(
    creator, opponent, users, monkeypatch
):
    """The seats a move locks bring what notifying their users needs: the next player's
    webhook and device get a row, a device made inactive or a channel switched off none."""
    from notifications import services as notification_services
    from notifications.models import Device, WebhookEndpoint
    from notifications.preferences import preferences_update
    from notifications.webhooks import new_secret

    monkeypatch.setattr(notification_services, "deliveries_queue", lambda ids: None)
    game = create_game(creator, first_seat=0)
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    keep_all_initial(game["id"], creator, opponent)
    guest = users["opponent"]
    WebhookEndpoint.objects.create(user=guest, url="http://127.0.0.1:9/h", secret=new_secret())
    device = Device.objects.create(user=guest, platform="fcm", token="fcm-guest")
    url = f"/api/v1/games/{game['id']}"

    def end_turn(client):
        for _ in range(2):
            version = client.get(url).json()["version"]
            body = {"version": version, "action": {"type": "draw_blind"}}
            assert client.post(f"{url}/actions", body, format="json").status_code == 200

    end_turn(creator)
    told = Notification.objects.filter(user=guest, kind="your_turn").latest("id")
    assert sorted(told.deliveries.values_list("channel", flat=True)) == ["push", "webhook"]
    end_turn(opponent)
    Device.objects.filter(pk=device.pk).update(active=False)
    type(guest).objects.filter(pk=guest.pk).update(email="guest@example.com")
    channels = {"webhook": False, "email": True, "push": True}
    preferences_update(guest, channels={"your_turn": channels}, quiet_hours=None)
    end_turn(creator)
    told = Notification.objects.filter(user=guest, kind="your_turn").latest("id")
    assert sorted(told.deliveries.values_list("channel", flat=True)) == ["email"]
