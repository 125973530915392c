"""``write.decision_unchanged``: which changes since a version leave a seat's decision as
it was (the rule behind the action precondition and the AI's applying of its choices)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import KeepTickets
from games.commands import play, write
from games.domain.seats import state_of
from games.models import Game

from .conftest import two_people

pytestmark = pytest.mark.django_db


def _keep(user: Any, game: Game, seat: int, version: int) -> None:
    state = state_of(Game.objects.get(pk=game.pk))
    offered = [state.board.tickets[i].id for i in state.offers[seat]]
    play.move_play(user, game.pk, KeepTickets(tuple(offered)), version)


def _unchanged(game: Game, seat: int, since: int) -> bool:
    fresh = Game.objects.get(pk=game.pk)
    return write.decision_unchanged(fresh, state_of(fresh), seat, since)


def test_the_current_version_is_always_current(person: Any, guest: Any) -> None:
    game = two_people(person, guest)
    assert _unchanged(game, 0, game.version)
    assert _unchanged(game, 1, game.version)


def test_another_seats_first_choice_leaves_mine_unchanged(person: Any, guest: Any) -> None:
    game = two_people(person, guest)
    _keep(person, game, 0, game.version)
    assert _unchanged(game, 1, game.version)


def test_my_own_choice_changes_my_decision(person: Any, guest: Any) -> None:
    game = two_people(person, guest)
    _keep(person, game, 0, game.version)
    assert not _unchanged(game, 0, game.version)


def test_a_change_without_a_move_changes_every_decision(person: Any, guest: Any) -> None:
    game = two_people(person, guest)
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)  # e.g. extra time
    assert not _unchanged(game, 0, game.version)


def test_once_the_first_choice_is_over_only_the_current_version_counts(
    person: Any, guest: Any
) -> None:
    game = two_people(person, guest)
    _keep(person, game, 0, game.version)
    _keep(guest, game, 1, game.version)
    current = Game.objects.get(pk=game.pk).version
    assert _unchanged(game, 0, current)
    assert not _unchanged(game, 0, current - 1)


def test_a_version_from_the_future_is_never_current(person: Any, guest: Any) -> None:
    game = two_people(person, guest)
    assert not _unchanged(game, 0, game.version + 1)
