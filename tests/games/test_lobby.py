"""The lobby's commands, called directly: who may do what before a game starts."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.commands import lobby
from games.models import Game, GameStatus, Seat, SeatKind
from ttr_service.http.problems import ServiceError

pytestmark = pytest.mark.django_db


def _open_game(user: Any, seats: int = 3) -> Game:
    specs = [lobby.SeatSpec("creator")] + [lobby.SeatSpec("open")] * (seats - 1)
    return lobby.game_create(user, board="europe", seats=specs)


def test_a_game_starts_when_its_last_seat_is_taken(person: Any, guest: Any) -> None:
    game = _open_game(person, seats=2)
    assert game.status == GameStatus.LOBBY
    lobby.game_join(guest, game.pk)
    started = Game.objects.get(pk=game.pk)
    assert started.status == GameStatus.ACTIVE
    assert started.state is not None
    assert set(Seat.objects.filter(game=game).values_list("pending", flat=True)) == {True}


def test_each_change_raises_the_version_by_one(person: Any, guest: Any) -> None:
    game = _open_game(person)
    before = Game.objects.get(pk=game.pk).version
    lobby.game_join(guest, game.pk)
    lobby.game_leave(guest, game.pk)
    assert Game.objects.get(pk=game.pk).version == before + 2


def test_only_the_creator_starts_or_cancels(person: Any, guest: Any) -> None:
    game = _open_game(person)
    lobby.game_join(guest, game.pk)
    for command in (lobby.game_start, lobby.game_cancel):
        with pytest.raises(ServiceError) as refused:
            command(guest, game.pk)
        assert str(refused.value.problem_code) == "NOT_CREATOR"


def test_starting_early_drops_the_empty_seats_and_closes_ranks(person: Any, guest: Any) -> None:
    specs = [lobby.SeatSpec("open"), lobby.SeatSpec("creator"), lobby.SeatSpec("ai")]
    game = lobby.game_create(person, board="europe", seats=specs)
    started = lobby.game_start(person, game.pk)
    assert started.players == 2
    kinds = list(Seat.objects.filter(game=game).order_by("index").values_list("index", "kind"))
    assert kinds == [(0, SeatKind.HUMAN), (1, SeatKind.AI)]


def test_a_refused_invitation_leaves_the_game_as_it_was(person: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        lobby.game_create(
            person,
            board="europe",
            seats=[lobby.SeatSpec("creator"), lobby.SeatSpec("invite", username="nobody")],
        )
    assert str(refused.value.problem_code) == "UNKNOWN_USER"
    assert not Game.objects.exists()


def test_an_unknown_board_has_the_engines_code(person: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        lobby.game_create(person, board="mars", seats=[lobby.SeatSpec("creator")] * 2)
    assert str(refused.value.problem_code) == "UNKNOWN_BOARD"


def test_declining_an_invitation_opens_the_seat(person: Any) -> None:
    invitee = get_user_model().objects.create_user("bob", password="a-long-password-1")
    specs = [lobby.SeatSpec("creator"), lobby.SeatSpec("invite", username="bob")]
    game = lobby.game_create(person, board="europe", seats=specs)
    lobby.invitation_decline(invitee, game.pk)
    assert Seat.objects.get(game=game, index=1).kind == SeatKind.OPEN
