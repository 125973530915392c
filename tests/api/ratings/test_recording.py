"""ratings.services.game_result_record: statistics, Elo ratings, and recording once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import GameStatus, Seat
from ratings.models import PlayerStats, RatedGame, Rating, RatingChange
from ratings.services import game_result_record, game_results_record_missing
from ratings.tasks import record_game_result as record_task

from .conftest import seat


def rating_of(user, board="europe"):
    return Rating.objects.get(user=user, board=board)


def stats_of(user, board="europe"):
    return PlayerStats.objects.get(user=user, board=board)


def test_it_records_the_statistics_of_both_players_of_a_finished_game(finished_game, player):
    alice, bob = player("alice"), player("bob")
    game = finished_game(
        seat(alice, place=1, total=120, completed=4, failed=1, longest=True),
        seat(bob, place=2, total=85, completed=2, failed=2),
    )

    assert game_result_record(game.pk) is True

    a, b = stats_of(alice), stats_of(bob)
    assert (a.games, a.wins, a.total_score, a.average_score) == (1, 1, 120, 120.0)
    assert (a.tickets_completed, a.tickets_failed, a.longest_path_bonuses) == (4, 1, 1)
    assert (b.games, b.wins, b.total_score, b.tickets_completed, b.tickets_failed) == (
        1,
        0,
        85,
        2,
        2,
    )
    assert b.longest_path_bonuses == 0
    assert a.last_played == game.finished_at
    assert a.forfeits == b.forfeits == 0


def test_a_two_player_game_between_equal_ratings_moves_them_by_16(finished_game, player):
    alice, bob = player("alice"), player("bob")
    game = finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=90))

    game_result_record(game.pk)

    assert rating_of(alice).rating == 1516.0
    assert rating_of(bob).rating == 1484.0
    assert rating_of(alice).rated_games == rating_of(bob).rated_games == 1
    assert (rating_of(alice).rated_wins, rating_of(bob).rated_wins) == (1, 0)
    change = RatingChange.objects.get(game=game, user=bob)
    assert (change.before, change.after, change.change, change.place, change.opponents) == (
        1500.0,
        1484.0,
        -16.0,
        2,
        1,
    )


def test_an_upset_between_unequal_ratings_moves_them_by_the_elo_formula(finished_game, player):
    alice, bob = player("alice"), player("bob")
    game_result_record(
        finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=90)).pk
    )

    # 1516 against 1484, the lower rating wins: 32 * (1 - 1 / (1 + 10 ** (32 / 400))) = 17.47
    game_result_record(
        finished_game(seat(alice, place=2, total=70), seat(bob, place=1, total=95)).pk
    )

    assert rating_of(alice).rating == 1498.53
    assert rating_of(bob).rating == 1501.47
    assert rating_of(alice).rated_games == 2


def test_a_three_player_game_with_a_shared_first_place_splits_k_between_opponents(
    finished_game, player
):
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    game = finished_game(
        seat(alice, place=1, total=100),
        seat(bob, place=1, total=100),
        seat(carol, place=3, total=60),
    )

    game_result_record(game.pk)

    # K = 32 / 2 opponents = 16 per pair: the draw moves nothing, beating carol gives +8.
    assert rating_of(alice).rating == 1508.0
    assert rating_of(bob).rating == 1508.0
    assert rating_of(carol).rating == 1484.0
    assert stats_of(alice).wins == stats_of(bob).wins == 1
    assert stats_of(carol).wins == 0
    assert RatingChange.objects.get(game=game, user=carol).opponents == 2


def test_a_three_player_game_between_unequal_ratings_uses_the_ratings_from_before_it(
    finished_game, player
):
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    game_result_record(
        finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=90)).pk
    )

    # alice 1516, bob 1484, carol 1500; bob and carol share first place, alice is last.
    game_result_record(
        finished_game(
            seat(alice, place=3, total=50),
            seat(bob, place=1, total=110),
            seat(carol, place=1, total=110),
        ).pk
    )

    # alice: 16 * ((0 - 0.54592) + (0 - 0.52301)) = -17.10
    # bob:   16 * ((1 - 0.45408) + (0.5 - 0.47699)) = +9.10
    # carol: 16 * ((1 - 0.47699) + (0.5 - 0.52301)) = +8.00
    assert rating_of(alice).rating == 1498.9
    assert rating_of(bob).rating == 1493.1
    assert rating_of(carol).rating == 1508.0


def test_a_forfeited_player_counts_a_forfeit_and_loses_rating_as_last(finished_game, player):
    alice, bob = player("alice"), player("bob")
    # The sheet ranks a forfeited player last whatever the points.
    game = finished_game(
        seat(alice, place=1, total=40), seat(bob, place=2, total=90, forfeited=True)
    )

    game_result_record(game.pk)

    assert stats_of(bob).forfeits == 1
    assert stats_of(alice).forfeits == 0
    assert rating_of(bob).rating == 1484.0


def test_recording_a_game_twice_changes_nothing_the_second_time(finished_game, player):
    alice, bob = player("alice"), player("bob")
    game = finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=90))
    assert game_result_record(game.pk) is True

    assert game_result_record(game.pk) is False

    assert stats_of(alice).games == 1
    assert stats_of(alice).total_score == 100
    assert rating_of(alice).rating == 1516.0
    assert rating_of(alice).rated_games == 1
    assert RatingChange.objects.filter(game=game).count() == 2
    assert RatedGame.objects.filter(game=game).count() == 1


def test_a_game_with_an_ai_seat_records_statistics_of_the_people_but_no_rating(
    finished_game, player
):
    alice, bob = player("alice"), player("bob")
    game = finished_game(
        seat(alice, place=2, total=90),
        seat(None, place=1, total=120),
        seat(bob, place=3, total=60),
    )

    assert game_result_record(game.pk) is True

    assert stats_of(alice).games == stats_of(bob).games == 1
    assert stats_of(alice).wins == 0  # the AI won
    assert PlayerStats.objects.count() == 2  # the AI seat has no statistics
    assert not Rating.objects.filter(rated_games__gt=0).exists()
    assert not RatingChange.objects.exists()
    assert RatedGame.objects.get(game=game).rated is False


@pytest.mark.parametrize("status", [GameStatus.ACTIVE, GameStatus.LOBBY, GameStatus.CANCELLED])
def test_a_game_that_is_not_finished_records_nothing(finished_game, player, status):
    alice, bob = player("alice"), player("bob")
    game = finished_game(
        seat(alice, place=1, total=100), seat(bob, place=2, total=90), status=status
    )

    assert game_result_record(game.pk) is False

    assert not PlayerStats.objects.exists()
    assert not Rating.objects.exists()
    assert not RatedGame.objects.exists()


def test_an_unknown_game_records_nothing(db):
    assert game_result_record(999_999) is False
    assert not RatedGame.objects.exists()


def test_statistics_add_up_per_board_and_keep_the_latest_game_time(finished_game, player):
    alice, bob = player("alice"), player("bob")
    later = timezone.now()
    earlier = later - timedelta(days=2)
    first = finished_game(
        seat(alice, place=1, total=100, completed=3),
        seat(bob, place=2, total=90),
        finished_at=later,
    )
    # Recorded second although it finished first: last_played stays at the later game.
    second = finished_game(
        seat(alice, place=2, total=51, failed=2),
        seat(bob, place=1, total=99),
        finished_at=earlier,
    )

    game_result_record(first.pk)
    game_result_record(second.pk)

    a = stats_of(alice)
    assert (a.games, a.wins, a.total_score, a.average_score) == (2, 1, 151, 75.5)
    assert (a.tickets_completed, a.tickets_failed) == (3, 2)
    assert a.last_played == later


def test_the_task_records_a_game_and_reports_false_when_run_again(finished_game, player):
    alice, bob = player("alice"), player("bob")
    game = finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=90))

    assert record_task.apply(args=[game.pk]).get() is True
    assert record_task.apply(args=[game.pk]).get() is False

    assert rating_of(alice).rating == 1516.0


def test_recording_missing_results_catches_up_finished_games_only(finished_game, player):
    alice, bob = player("alice"), player("bob")
    done = finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=90))
    game_result_record(done.pk)
    missed = finished_game(seat(alice, place=2, total=80), seat(bob, place=1, total=90))
    finished_game(
        seat(alice, place=1, total=0), seat(bob, place=2, total=0), status=GameStatus.ACTIVE
    )

    assert game_results_record_missing() == 1

    assert RatedGame.objects.filter(game=missed).exists()
    assert stats_of(alice).games == 2


def test_a_game_where_the_ai_took_over_a_seat_is_not_rated(finished_game, player):
    alice, bob = player("alice"), player("bob")
    game = finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=90))
    Seat.objects.filter(game=game, user=bob).update(ai_controlled=True)

    assert game_result_record(game.pk) is True

    assert stats_of(bob).games == 1  # still the user's seat and result
    assert not RatingChange.objects.exists()
    assert RatedGame.objects.get(game=game).rated is False
