"""A finished game is rated because the ratings app listens to ``games.events.game_finished``:
the recording is queued when the change that ended the game commits, never before."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import events
from ratings import tasks
from ratings.models import RatedGame, Rating
from ttr_service import celery_app

from .conftest import seat


@pytest.fixture
def queued(monkeypatch):
    """The games whose recording was queued (nothing is run)."""
    calls = []
    monkeypatch.setattr(tasks.record_game_result, "delay", calls.append)
    return calls


@pytest.fixture
def eager_tasks():
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


def test_the_recording_is_queued_once_the_change_that_ended_the_game_commits(
    finished_game, player, queued, django_capture_on_commit_callbacks
):
    game = finished_game(seat(player("alice"), place=1, total=100), seat(None, place=2, total=90))

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        events.game_over(game, game.result)
        assert queued == []

    assert queued == [game.pk]


def test_nothing_is_queued_when_that_change_rolls_back(
    finished_game, player, queued, django_capture_on_commit_callbacks
):
    game = finished_game(seat(player("alice"), place=1, total=100), seat(None, place=2, total=90))

    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        events.game_over(game, game.result)
        raise RuntimeError("the last move failed")

    assert callbacks == []
    assert queued == []


def test_the_players_are_rated_when_the_queued_task_runs(
    finished_game, player, eager_tasks, django_capture_on_commit_callbacks
):
    alice, bob = player("alice"), player("bob")
    game = finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=90))

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        events.game_over(game, game.result)

    assert RatedGame.objects.filter(game=game).exists()
    assert Rating.objects.get(user=alice, board="europe").rating == 1516.0
