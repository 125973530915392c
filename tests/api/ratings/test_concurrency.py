"""Concurrent recording on the real PostgreSQL server: row locks and the claim, not luck."""

from __future__ import annotations

from itertools import pairwise

import pytest

from ratings.models import PlayerStats, RatedGame, Rating, RatingChange
from ratings.services import game_result_record
from tests.concurrency import run_at_once

from .conftest import seat

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 6


def test_the_same_game_recorded_at_once_is_recorded_exactly_once(finished_game, player):
    alice, bob = player("alice"), player("bob")
    game = finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=90))

    results = run_at_once([lambda: game_result_record(game.pk)] * THREADS)

    assert sorted(results) == [False] * (THREADS - 1) + [True]
    assert RatedGame.objects.filter(game=game).count() == 1
    assert PlayerStats.objects.get(user=alice).games == 1
    assert Rating.objects.get(user=alice).rating == 1516.0
    assert RatingChange.objects.filter(game=game).count() == 2


def test_games_sharing_players_recorded_at_once_all_count(finished_game, player):
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    games = [
        finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=90)),
        finished_game(seat(bob, place=1, total=100), seat(carol, place=2, total=90)),
        finished_game(seat(carol, place=1, total=100), seat(alice, place=2, total=90)),
        finished_game(seat(alice, place=1, total=80), seat(bob, place=2, total=70)),
    ]

    results = run_at_once([lambda g=g: game_result_record(g.pk) for g in games])

    assert results == [True] * len(games)
    assert PlayerStats.objects.get(user=alice).games == 3
    assert PlayerStats.objects.get(user=bob).games == 3
    assert Rating.objects.get(user=carol).rated_games == 2
    # Every change starts where the previous one of the same player ended.
    for user in (alice, bob, carol):
        changes = list(RatingChange.objects.filter(user=user).order_by("id"))
        assert changes[0].before == 1500.0
        for earlier, later in pairwise(changes):
            assert later.before == earlier.after
        assert Rating.objects.get(user=user).rating == changes[-1].after
