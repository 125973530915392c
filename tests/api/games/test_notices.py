"""What players are told as their games move on (in-app notifications)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import timeouts
from notifications.models import Notification

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
        timeouts.sweep()
    assert "timed_out" in _kinds(users["creator"])
    over = Notification.objects.get(user=users["opponent"], kind="game_over")
    assert over.data["place"] == 1
    assert Notification.objects.get(user=users["creator"], kind="game_over").data["place"] == 2


def test_a_deadline_warning_is_sent_once_per_window(creator, opponent, users):
    game = create_game(creator, first_seat=0, turn_time_limit=7200)
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    keep_all_initial(game["id"], creator, opponent)
    with time_machine.travel(timezone.now() + timedelta(minutes=70), tick=False):
        timeouts.sweep()
        timeouts.sweep()
    warnings = Notification.objects.filter(user=users["creator"], kind="deadline_approaching")
    assert warnings.count() == 2  # the 24 h and the 1 h windows both contain the deadline
    assert not Notification.objects.filter(user=users["opponent"], kind="deadline_approaching")
