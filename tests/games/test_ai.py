"""The AI worker: a bot thinks on a snapshot with no transaction open, and its choice is
applied only while the seat's decision is still the one it thought about."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from engine import KeepTickets
from games.commands import play
from games.domain import bots
from games.domain.seats import state_of
from games.models import Game, Move, MoveCause
from games.worker import ai

from .conftest import against_ai

pytestmark = pytest.mark.django_db


def _offered(game: Game, seat: int) -> list[str]:
    state = state_of(game)
    return [state.board.tickets[i].id for i in state.offers[seat]]


def test_the_bot_thinks_with_no_transaction_open(person: Any, monkeypatch: Any) -> None:
    game = against_ai(person, ais=2)
    seen: list[bool] = []
    real = bots.think

    def watched(*args: Any) -> Any:
        # pytest-django wraps each test in a transaction: deeper than that means a command's.
        seen.append(connection.in_atomic_block and len(connection.savepoint_ids) > 0)
        return real(*args)

    monkeypatch.setattr(bots, "think", watched)
    assert ai.ai_turns_play(game.pk) == 2
    assert seen == [False, False]
    assert Move.objects.filter(game=game, cause=MoveCause.AI).count() == 2


def test_a_persons_choice_landing_while_the_bot_thinks_does_not_make_it_think_again(
    person: Any, monkeypatch: Any
) -> None:
    game = against_ai(person)
    real, calls = bots.think, []

    def person_moves_meanwhile(level: Any, seed: int, state: Any, seat: int) -> Any:
        calls.append(seat)
        if len(calls) == 1:
            mine = _offered(Game.objects.get(pk=game.pk), 0)
            play.move_play(person, game.pk, KeepTickets(tuple(mine)), state_version)
        return real(level, seed, state, seat)

    state_version = Game.objects.get(pk=game.pk).version
    monkeypatch.setattr(bots, "think", person_moves_meanwhile)

    assert ai.ai_turns_play(game.pk) == 1
    assert calls == [1]
    game.refresh_from_db()
    assert state_of(game).phase == "playing"
    assert list(Move.objects.filter(game=game).values_list("seat", "cause")) == [
        (0, MoveCause.PLAYER),
        (1, MoveCause.AI),
    ]


def test_a_decision_taken_meanwhile_makes_the_bot_think_again(
    person: Any, monkeypatch: Any
) -> None:
    game = against_ai(person)
    real, calls = bots.think, []

    def another_worker_moves_meanwhile(level: Any, seed: int, state: Any, seat: int) -> Any:
        calls.append(seat)
        if len(calls) == 1:
            # A second worker applies a choice for the same seat first.
            fresh = Game.objects.get(pk=game.pk)
            other = KeepTickets(tuple(_offered(fresh, 1)))
            assert play.ai_move_apply(game.pk, 1, other, fresh.version)[0] is play.AiMove.APPLIED
        return real(level, seed, state, seat)

    monkeypatch.setattr(bots, "think", another_worker_moves_meanwhile)

    assert ai.ai_turns_play(game.pk) == 0  # its own choice went stale; nothing else pending
    assert len(calls) == 1
    assert Move.objects.filter(game=game, seat=1).count() == 1


def test_a_stale_choice_is_refused_under_the_lock(person: Any) -> None:
    game = against_ai(person)
    decided_on = game.version
    choice = KeepTickets(tuple(_offered(game, 1)))
    assert play.ai_move_apply(game.pk, 1, choice, decided_on)[0] is play.AiMove.APPLIED
    assert play.ai_move_apply(game.pk, 1, choice, decided_on)[0] is play.AiMove.RETHINK
    assert Move.objects.filter(game=game, seat=1).count() == 1


def test_a_seat_taken_back_by_its_person_is_not_played(person: Any) -> None:
    game = against_ai(person)
    choice = KeepTickets(tuple(_offered(game, 0)))
    # Seat 0 is the person's: the worker never plays it.
    assert play.ai_move_apply(game.pk, 0, choice, game.version)[0] is play.AiMove.RETHINK
    assert not Move.objects.filter(game=game).exists()
