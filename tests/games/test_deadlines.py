"""Settling a missed deadline thinks before it locks; reading an overdue game writes
nothing and only asks a worker to settle it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from engine import DrawBlind, EngineError, KeepTickets
from games import events
from games.commands import deadlines
from games.domain import bots
from games.domain.seats import seat_of
from games.models import Game, MissedDeadline, Move, MoveCause
from games.queries import games as game_queries
from games.serializers.games import game_detail

from .conftest import two_people

pytestmark = pytest.mark.django_db


def _later(hours: float = 2) -> Any:
    return time_machine.travel(timezone.now() + timedelta(hours=hours), tick=False)


def test_the_ai_playing_a_missed_turn_thinks_outside_any_transaction(
    person: Any, guest: Any, monkeypatch: Any
) -> None:
    game = two_people(person, guest, turn_time_limit=3600)
    inside: list[bool] = []
    real = bots.think

    def watched(*args: Any) -> Any:
        inside.append(len(connection.savepoint_ids) > 0)
        return real(*args)

    monkeypatch.setattr(bots, "think", watched)
    with _later():
        assert deadlines.deadline_settle(game.pk) is True
        assert deadlines.deadline_settle(game.pk) is False
    assert inside == [False, False]  # both seats missed their first choice
    assert MissedDeadline.objects.filter(game=game).count() == 1
    assert Move.objects.filter(game=game, cause=MoveCause.TIMEOUT).count() == 2


def test_a_change_while_the_ai_thinks_makes_it_think_again_on_the_new_version(
    person: Any, guest: Any, monkeypatch: Any
) -> None:
    game = two_people(person, guest, turn_time_limit=3600)
    real, versions = bots.think, []

    def extra_time_meanwhile(level: Any, seed: int, state: Any, seat: int) -> Any:
        versions.append(Game.objects.get(pk=game.pk).version)
        if len(versions) == 1:
            # Someone changes the game (a version with no move) while the AI thinks.
            Game.objects.filter(pk=game.pk).update(version=game.version + 1)
        return real(level, seed, state, seat)

    monkeypatch.setattr(bots, "think", extra_time_meanwhile)
    with _later():
        assert deadlines.deadline_settle(game.pk) is True
    # Planned both seats (the game changed during the first), then both again.
    assert versions == [game.version] + [game.version + 1] * 3
    assert MissedDeadline.objects.get(game=game).version == game.version + 1


def test_reading_an_overdue_game_writes_nothing_and_queues_its_settling(
    person: Any, guest: Any, monkeypatch: Any
) -> None:
    game = two_people(person, guest, turn_time_limit=3600)
    asked: list[int] = []
    monkeypatch.setattr(events, "settling", asked.append)
    with _later():
        seen = game_queries.current_game(game.pk)
    assert asked == [game.pk]
    assert seen.version == game.version
    assert not MissedDeadline.objects.exists()
    assert not Move.objects.filter(game=game).exists()


def test_reading_a_game_on_time_queues_nothing(person: Any, guest: Any, monkeypatch: Any) -> None:
    game = two_people(person, guest, turn_time_limit=3600)
    asked: list[int] = []
    monkeypatch.setattr(events, "settling", asked.append)
    assert game_queries.current_game(game.pk).version == game.version
    assert asked == []


def test_a_deadline_only_ai_seats_missed_does_not_hold_up_a_persons_command(
    person: Any, guest: Any
) -> None:
    from games.commands import play
    from games.models import Seat

    game = two_people(person, guest, turn_time_limit=3600)
    # Both seats choose their first tickets; the guest's seat is now the AI's, and the
    # person has chosen: only the AI seat's choice is pending when the deadline passes.
    Seat.objects.filter(game=game, index=1).update(ai_controlled=True)
    loaded = game_queries.game_or_404(game.pk)
    view = game_detail(loaded, seat_of(person, loaded))
    offered = [t["id"] for t in view["state"]["you"]["offered_tickets"]]
    play.move_play(person, game.pk, KeepTickets(tuple(offered)), game.version)
    with _later():
        assert deadlines.deadline_settle(game.pk) is True  # recorded; nothing to play
        assert not Move.objects.filter(game=game, cause=MoveCause.TIMEOUT).exists()
        # The engine's refusal, not a loop of settling a deadline already settled.
        with pytest.raises(EngineError) as refused:
            play.move_play(person, game.pk, DrawBlind(), game.version + 1)
    assert refused.value.code == "NOT_YOUR_TURN"
