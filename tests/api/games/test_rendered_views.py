"""The views a move renders for every seated player are the views rendered one by one."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from games import rendering
from games.commands import lobby
from games.domain.seats import state_of
from games.queries import sql
from games.serializers.games import game_detail

pytestmark = pytest.mark.django_db


def test_the_views_made_together_are_each_seats_own_view():
    model = get_user_model()
    names = ["ann", "bea", "cid", "dan"]
    users = [model.objects.create_user(n, password="a-long-password-1") for n in names]
    seats = [lobby.SeatSpec("creator"), *(lobby.SeatSpec("invite", username=n) for n in names[1:])]
    created = lobby.game_create(users[0], board="europe", seats=seats, first_seat=0)
    for user in users[1:]:
        lobby.invitation_accept(user, created.pk)
    game = sql.game_with_seats(created.pk)
    assert game is not None
    state = state_of(game)

    together = rendering.views_keep(game, state)

    one_by_one = {s.index: rendering.render(game_detail(game, s, state)) for s in game.seated}
    assert together == one_by_one
    views = {seat: json.loads(body) for seat, body in together.items()}
    assert [views[s]["your_seat"] for s in range(4)] == [0, 1, 2, 3]
    assert [views[s]["state"]["you"]["seat"] for s in range(4)] == [0, 1, 2, 3]
    assert len({json.dumps(v["state"]["you"]["offered_tickets"]) for v in views.values()}) == 4
