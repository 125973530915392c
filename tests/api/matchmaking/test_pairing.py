"""The pairing, run as a worker runs it: compatible seeks become one game with exactly
their players; blocks, pace, the rated flag, player ranges and rating windows keep seeks
apart; AI seats fill a table after the wait its seekers allow."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from django.utils import timezone

from games.models import Game, GameStatus, SeatKind
from matchmaking.models import Seek, SeekStatus
from matchmaking.pairing import seeks_pair
from notifications.models import Notification
from notifications.streams import InboxFeed
from ratings.models import Rating

from .conftest import seat, seek


def _seats(game_id: int) -> list[tuple[str, int | None, str]]:
    game = Game.objects.get(pk=game_id)
    return [(s.kind, s.user_id, s.ai_level) for s in game.seats.order_by("index")]


def _status(seek_id: int) -> str:
    return Seek.objects.get(pk=seek_id).status


def test_two_compatible_seeks_make_one_game_of_their_players(people):
    [(alice, a), (bob, b)] = people("alice", "bob")
    first, second = seek(a), seek(b)

    made = seeks_pair()

    assert len(made) == 1
    game = Game.objects.get(pk=made[0])
    assert game.status == GameStatus.ACTIVE and game.rated
    assert (game.board, game.turn_time_limit, game.players) == ("europe", 60, 2)
    assert _seats(game.pk) == [("human", alice.pk, ""), ("human", bob.pk, "")]
    for made_seek in (first, second):
        stored = Seek.objects.get(pk=made_seek["id"])
        assert (stored.status, stored.game_id) == (SeekStatus.MATCHED, game.pk)
    assert a.get(f"/api/v1/seeks/{first['id']}").json()["game"] == game.pk
    assert seeks_pair() == []  # nothing left to pair, nothing paired twice


def test_each_player_is_told_in_app_and_on_the_stream(people):
    [(alice, a), (_, b)] = people("alice", "bob")
    mine = seek(a)
    seek(b)
    [game_id] = seeks_pair()

    told = Notification.objects.get(user=alice, kind="match_found")
    assert told.game_id == game_id
    assert told.data == {
        "game_id": game_id, "board": "europe", "seek_id": mine["id"], "seek_status": "matched",
    }  # fmt: skip
    events = InboxFeed(alice, 0).read_now().events
    seek_events = [e for e in events if e.name == "seek"]
    assert [e.data for e in seek_events] == [
        {"id": mine["id"], "status": "matched", "game": game_id}
    ]


def test_a_block_either_way_keeps_two_seekers_apart(people):
    [(_, a), (_, b), (_, c)] = people("alice", "bob", "carol")
    assert b.post("/api/v1/blocks", {"username": "alice"}, format="json").status_code == 201
    first, second = seek(a), seek(b)
    assert seeks_pair() == []
    assert _status(first["id"]) == _status(second["id"]) == SeekStatus.WAITING

    third = seek(c)
    [game_id] = seeks_pair()
    assert Seek.objects.get(pk=first["id"]).game_id == game_id
    assert Seek.objects.get(pk=third["id"]).game_id == game_id
    assert _status(second["id"]) == SeekStatus.WAITING


def test_pace_board_and_the_rated_flag_must_agree(people):
    [(_, a), (_, b), (_, c), (_, d)] = people("alice", "bob", "carol", "dave")
    seek(a, rated=True)
    seek(b, rated=False)
    seek(c, turn_time_limit=300)
    seek(d, board="usa")
    assert seeks_pair() == []


def test_a_casual_game_is_made_casual_and_left_unrated(people, finished_game):
    [(alice, a), (bob, b)] = people("alice", "bob")
    seek(a, rated=False)
    seek(b, rated=False)
    [game_id] = seeks_pair()
    assert Game.objects.get(pk=game_id).rated is False

    # The ratings leave a casual game out, and count a rated one.
    from ratings.services import game_result_record

    casual = finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=80))
    Game.objects.filter(pk=casual.pk).update(rated=False)
    assert game_result_record(casual.pk)
    assert not Rating.objects.exists()
    rated = finished_game(seat(alice, place=1, total=100), seat(bob, place=2, total=80))
    assert game_result_record(rated.pk)
    assert Rating.objects.filter(user=alice).get().rating > 1500


def test_a_table_forms_when_every_seeker_has_enough_players(people):
    [(_, a), (_, b), (_, c)] = people("alice", "bob", "carol")
    seek(a, players_min=3, players_max=3)
    seek(b, players_min=2, players_max=5)
    assert seeks_pair() == []
    seek(c, players_min=3, players_max=4)
    [game_id] = seeks_pair()
    assert Game.objects.get(pk=game_id).players == 3


def test_a_rating_window_widens_with_the_wait(people):
    [(_, a), (bob, b)] = people("alice", "bob")
    Rating.objects.create(user=bob, board="europe", rating=1700.0)
    seek(a, rating_window=100)
    seek(b)
    assert seeks_pair() == []
    # 100 points, +50 every 30 s: 200 after 60 s.
    with time_machine.travel(timezone.now() + timedelta(seconds=61), tick=False):
        assert len(seeks_pair()) == 1


def test_ai_seats_fill_the_table_after_the_allowed_wait(people):
    [(alice, a)] = people("alice")
    mine = seek(a, players_min=3, players_max=4, ai_fill_after=30)
    assert seeks_pair() == []
    with time_machine.travel(timezone.now() + timedelta(seconds=31), tick=False):
        [game_id] = seeks_pair()
    assert _seats(game_id) == [
        ("human", alice.pk, ""), (SeatKind.AI, None, "medium"), (SeatKind.AI, None, "medium"),
    ]  # fmt: skip
    assert Game.objects.get(pk=game_id).status == GameStatus.ACTIVE
    assert _status(mine["id"]) == SeekStatus.MATCHED


def test_a_pairing_asked_before_a_later_run_started_is_dropped(people):
    from django.core.cache import cache

    from matchmaking.tasks import LAST_RUN, pair_seeks

    [(_, a), (_, b)] = people("alice", "bob")
    seek(a)
    seek(b)
    cache.set(LAST_RUN, 2000.0)
    assert pair_seeks(1999.0) == 0  # a run started after it was asked: dropped
    assert Seek.objects.filter(status=SeekStatus.WAITING).count() == 2
    assert pair_seeks(2001.0) == 1  # asked after the last run started: it runs
    assert cache.get(LAST_RUN) > 2001.0
