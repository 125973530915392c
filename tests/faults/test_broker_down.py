"""Redis (the broker) down: moves are still accepted; their work runs once it is back."""

from __future__ import annotations

import json
import time

import pytest

from games.models import Move
from notifications.models import Delivery
from notifications.webhooks import endpoint_create
from tests.notifications.receiver import running_receiver
from tests.processes import wait_for

from .helpers import client_for, integrity, user
from .play import act, create_game, keep_offered_tickets, pending_seats

pytestmark = pytest.mark.postgres


def test_moves_are_accepted_while_redis_is_down_and_their_work_runs_once_after(
    redis_server, web, fault_worker
):
    host, guest = user("host"), user("guest")
    host_api, guest_api = client_for(web, host), client_for(web, guest)
    with running_receiver() as receiver:
        endpoint_create(guest, url=receiver.url, name="bot", events=["your_turn"])
        game_id = create_game(
            host_api,
            [{"type": "creator"}, {"type": "invite", "username": "guest"}, {"type": "ai"}],
            first_seat=0,
        )
        assert guest_api.post(f"/games/{game_id}/invitation/accept").status_code == 200
        wait_for(lambda: 2 not in pending_seats(game_id), 60, "the AI to keep its tickets")
        keep_offered_tickets(host_api, game_id)
        keep_offered_tickets(guest_api, game_id)
        wait_for(lambda: pending_seats(game_id) == {0}, 30, "the host's first turn")
        moves_before = Move.objects.filter(game_id=game_id).count()
        wait_for(
            lambda: (
                not Delivery.objects.filter(notification__user=guest, status="pending").exists()
            ),
            30,
            "the deliveries of the game's start",
        )

        redis_server.kill()
        received_before = len(receiver.requests)
        for client in (host_api, host_api, guest_api, guest_api):
            response = act(client, game_id, {"type": "draw_blind"})
            assert response.status_code == 200, response.text
        # Stored, and the AI's turn (seat 2) waits for a broker.
        assert Move.objects.filter(game_id=game_id).count() == moves_before + 4
        assert pending_seats(game_id) == {2}
        held = Delivery.objects.get(notification__user=guest, status="pending")
        assert held.notification.kind == "your_turn" and held.attempts == 0

        redis_server.start()
        wait_for(lambda: pending_seats(game_id) == {0}, 90, "the AI turn after Redis is back")
        wait_for(lambda: len(receiver.requests) > received_before, 60, "the held webhook")
        ai_moves = Move.objects.filter(game_id=game_id, number__gt=moves_before + 4)
        made = ai_moves.count()
        time.sleep(4)  # several sweeps of both kinds run meanwhile
        assert ai_moves.count() == made
        assert set(ai_moves.values_list("seat", flat=True)) == {2}
        assert 1 <= made <= 3  # one turn: a claim or two draws (a tunnel adds a step)
        assert len(receiver.requests) == received_before + 1
        sent = json.loads(receiver.requests[-1].body)
        assert sent["type"] == "your_turn" and sent["data"]["game_id"] == game_id
        held.refresh_from_db()
        assert held.status == "delivered" and held.attempts == 1
        assert receiver.requests[-1].headers["webhook-id"] == str(held.message_id)
    assert integrity(game_id)[0] == 0
