"""Races through the whole HTTP stack on PostgreSQL: 8 threads, one DRF test client each.

The same move posted at once is applied exactly once, every time; random different
actions from every seat at once never leave a state that differs from seed + log.
"""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from engine.state import CHOOSE_INITIAL_TICKETS
from games.commands import lobby, write
from games.domain.seats import state_of
from games.models import Game, Move
from games.queries.integrity import check_game
from tests.concurrency import run_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8
RACES = 100
ROUNDS = 40


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _players(n: int) -> list:
    model = get_user_model()
    return [model.objects.create_user(f"player{i}", password="a-long-password-1") for i in range(n)]


def _new_game(users: list) -> Game:
    """A started game of ``users`` (all people), the initial tickets still to choose."""
    seats = [lobby.SeatSpec("creator")] + [lobby.SeatSpec("open")] * (len(users) - 1)
    game = lobby.game_create(users[0], board="europe", seats=seats, first_seat=0)
    for guest in users[1:]:
        lobby.game_join(guest, game.pk)
    return Game.objects.get(pk=game.pk)


def _post(user, game_id: int, body: dict):
    def call() -> tuple[int, str | None]:
        response = _client(user).post(f"/api/v1/games/{game_id}/actions", body, format="json")
        code = None if response.status_code == 200 else response.json()["code"]
        return response.status_code, code

    return call


def test_the_same_move_posted_by_8_threads_applies_exactly_once_in_100_races():
    users = _players(2)
    rng = random.Random(100)
    game = _new_game(users)
    for _ in range(RACES):
        if game.status != "active":
            game = _new_game(users)
        state = state_of(game)
        seat = state.pending.seats[0]
        action = rng.choice(state.legal_actions(seat)).to_json()
        body = {"version": game.version, "action": action}
        moves = Move.objects.filter(game=game).count()

        results = run_at_once([_post(users[seat], game.pk, body)] * THREADS)

        assert sorted(results) == [(200, None)] + [(412, "VERSION_MISMATCH")] * (THREADS - 1)
        game = Game.objects.get(pk=game.pk)
        assert game.version == body["version"] + 1
        assert Move.objects.filter(game=game).count() == moves + 1
    assert check_game(game) == []


def test_random_actions_from_every_seat_at_once_never_corrupt_the_game():
    users = _players(4)
    rng = random.Random(4)
    game = _new_game(users)
    applied = 0
    for _ in range(ROUNDS):
        if game.status != "active":
            game = _new_game(users)
        state = state_of(game)
        calls = []
        for seat, user in enumerate(users):
            # Each seat posts two actions: legal ones when it must decide, otherwise what
            # the seat to move could play (the engine refuses them: not its turn).
            mover = seat if seat in state.pending.seats else state.pending.seats[0]
            options = state.legal_actions(mover)
            for _ in range(THREADS // len(users)):
                body = {"version": game.version, "action": rng.choice(options).to_json()}
                calls.append(_post(user, game.pk, body))

        results = run_at_once(calls)

        codes = [status for status, _ in results]
        # One move a round; while all seats choose their first tickets, one per seat (the
        # others' choices do not make a seat's own choice stale).
        initial = state.pending.kind == CHOOSE_INITIAL_TICKETS
        assert codes.count(200) == (len(state.pending.seats) if initial else 1), results
        assert {code for _, code in results} <= {None, "VERSION_MISMATCH", "NOT_YOUR_TURN"}
        game = Game.objects.get(pk=game.pk)
        assert check_game(game) == []
        applied += 1
    assert applied == ROUNDS


def test_a_lock_that_waited_for_a_move_reads_the_seats_that_move_wrote():
    """A statement that waits for the game's lock sees the game as the move left it; the
    seats must be too (read-committed gives a waiting statement its joined rows as they
    were when it began)."""
    import threading
    import time

    from django.db import connection, transaction

    from games.models import Seat

    game = _new_game(_players(2))
    holding, release, seen = threading.Event(), threading.Event(), {}

    def move() -> None:
        try:
            with transaction.atomic():
                write.game_lock(game.pk)
                Seat.objects.filter(game=game, index=1).update(missed_turns=7, pending=False)
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    def next_move() -> None:
        try:
            holding.wait(10)
            with transaction.atomic():
                locked = write.game_lock(game.pk)
                seat = next(s for s in locked.seated if s.index == 1)
                seen["seat"] = (seat.missed_turns, seat.pending)
        finally:
            connection.close()

    threads = [threading.Thread(target=move), threading.Thread(target=next_move)]
    for t in threads:
        t.start()
    holding.wait(10)
    time.sleep(0.5)  # the second transaction is now waiting for the lock
    release.set()
    for t in threads:
        t.join(20)
    assert seen["seat"] == (7, False)
