"""The views a move renders for every seated player are the views rendered one by one."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from games import loading, lobby, rendered, selectors, snapshot

pytestmark = pytest.mark.django_db


def test_the_views_made_together_are_each_seats_own_view():
    model = get_user_model()
    names = ["ann", "bea", "cid", "dan"]
    users = [model.objects.create_user(n, password="a-long-password-1") for n in names]
    seats = [lobby.SeatSpec("creator"), *(lobby.SeatSpec("invite", username=n) for n in names[1:])]
    created = lobby.create_game(users[0], board="europe", seats=seats, first_seat=0)
    for user in users[1:]:
        lobby.answer_invitation(user, created.pk, True)
    game = loading.game_with_seats(created.pk)
    assert game is not None
    state = snapshot.load_state(game)

    together = rendered.render_seats(game, state)

    one_by_one = {
        s.index: rendered.render(selectors.seat_detail(game, s, state)) for s in game.seats.all()
    }
    assert together == one_by_one
    views = {seat: json.loads(body) for seat, body in together.items()}
    assert [views[s]["your_seat"] for s in range(4)] == [0, 1, 2, 3]
    assert [views[s]["state"]["you"]["seat"] for s in range(4)] == [0, 1, 2, 3]
    assert len({json.dumps(v["state"]["you"]["offered_tickets"]) for v in views.values()}) == 4
