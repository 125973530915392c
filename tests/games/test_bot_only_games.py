"""Bot-only games at the command level: what counts towards the limit, what a cancel
leaves behind, and the limit under concurrent creations (PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.commands import lobby
from games.commands.play import AiMove, ai_move_apply
from games.domain import bots
from games.domain.seats import state_of
from games.models import Game, GameStatus, Move, Seat
from games.queries.integrity import check_game
from tests.concurrency import run_at_once
from ttr_service.http.problems import ServiceError

BOTS = [lobby.SeatSpec("ai", level="random"), lobby.SeatSpec("ai", level="random")]


def bots_only(user: Any, **options: Any) -> Game:
    return lobby.game_create(user, board="europe", seats=BOTS, **options)


@pytest.fixture(autouse=True)
def _no_ai_turns_queued(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("games.events.ai_turns_on_commit", lambda game_id, version: None)


@pytest.mark.django_db
def test_only_the_users_unfinished_games_without_a_person_count(person: Any, guest: Any) -> None:
    counted = bots_only(person)
    bots_only(guest)
    lobby.game_create(person, board="europe", seats=[lobby.SeatSpec("creator"), *BOTS])
    lobby.game_create(person, board="europe", seats=[lobby.SeatSpec("open"), *BOTS])
    invited = [lobby.SeatSpec("invite", username="grace"), *BOTS]
    lobby.game_create(person, board="europe", seats=invited)
    cancelled = bots_only(person)
    lobby.game_cancel(person, cancelled.pk)
    finished = bots_only(person)
    Game.objects.filter(pk=finished.pk).update(status=GameStatus.FINISHED)

    assert list(lobby.bot_only_games(person)) == [counted]


@pytest.mark.django_db
def test_a_creation_past_the_limit_creates_nothing(person: Any, settings: Any) -> None:
    settings.MAX_BOT_ONLY_GAMES_PER_USER = 1
    bots_only(person)
    counts = Game.objects.count(), Seat.objects.count()

    with pytest.raises(ServiceError) as refused:
        bots_only(person)

    assert (str(refused.value.problem_code), refused.value.status_code) == (
        "TOO_MANY_BOT_GAMES",
        409,
    )
    assert (Game.objects.count(), Seat.objects.count()) == counts


@pytest.mark.django_db
def test_a_cancelled_running_game_has_no_clock_and_no_seat_to_decide(person: Any) -> None:
    game = bots_only(person, turn_time_limit=3600)
    running = Game.objects.get(pk=game.pk)
    assert running.deadline is not None
    assert Seat.objects.filter(game=game, pending=True).exists()

    lobby.game_cancel(person, game.pk)

    cancelled = Game.objects.get(pk=game.pk)
    assert cancelled.status == GameStatus.CANCELLED
    assert cancelled.version == running.version + 1
    assert cancelled.deadline is None
    assert cancelled.state == running.state
    assert not Seat.objects.filter(game=game, pending=True).exists()
    assert check_game(cancelled) == []


@pytest.mark.django_db
def test_an_ai_move_decided_before_the_cancel_is_not_applied(person: Any) -> None:
    game = bots_only(person)
    loaded = Game.objects.get(pk=game.pk)
    state = state_of(loaded)
    seat = state.pending.seats[0]
    decided = bots.think("random", loaded.seed, state, seat)

    lobby.game_cancel(person, game.pk)

    assert ai_move_apply(game.pk, seat, decided, loaded.version)[0] is AiMove.DONE
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_creations_at_the_same_moment_keep_to_the_limit(settings: Any) -> None:
    settings.MAX_BOT_ONLY_GAMES_PER_USER = 2
    user = get_user_model().objects.create_user("racer", password="a-long-password-1")

    def create() -> str:
        try:
            bots_only(user)
        except ServiceError as exc:
            return str(exc.problem_code)
        return "created"

    outcomes = run_at_once([create] * 6)

    assert sorted(outcomes) == ["TOO_MANY_BOT_GAMES"] * 4 + ["created"] * 2
    assert lobby.bot_only_games(user).count() == 2
