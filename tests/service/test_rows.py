"""Kept SQL (``ttr_service.storage.rows``) gives what the ORM gives, on SQLite and PostgreSQL.

``test_rows_postgres.py`` runs these same tests on PostgreSQL.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Game, Seat, SeatKind
from notifications.models import Kind, Notification
from ttr_service.storage import rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    user = get_user_model().objects.create_user("rows-alice", password="a-long-password-1")
    game = Game.objects.create(
        board="europe",
        created_by=user,
        players=2,
        seed=12345678901,
        state={"nested": {"cards": [1, 2, 3]}, "text": "é ✓"},
        deadline=timezone.now() + timedelta(hours=2),
    )
    Seat.objects.create(game=game, index=0, kind=SeatKind.HUMAN, user=user)
    Seat.objects.create(game=game, index=1, kind=SeatKind.OPEN)
    return game


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_columns_load_what_the_orm_loads(game: Game) -> None:
    columns = rows.Columns(Game, "g")
    found = rows.fetch(
        f"SELECT {columns.sql()} FROM {rows.table(Game)} g WHERE g.id = %s", [game.pk]
    )
    loaded = columns.load(found[0])
    assert loaded is not None
    assert _fields(loaded) == _fields(Game.objects.get(pk=game.pk))
    assert loaded._state.adding is False


def test_only_defers_the_other_fields(game: Game) -> None:
    columns = rows.Columns(Game, "g", only=("version",))
    found = rows.fetch(
        f"SELECT {columns.sql()} FROM {rows.table(Game)} g WHERE g.id = %s", [game.pk]
    )
    loaded = columns.load(found[0])
    assert loaded is not None
    assert loaded.get_deferred_fields() >= {"state", "board", "deadline"}
    assert loaded.board == "europe"  # read when asked for, as with QuerySet.only


def test_select_matches_filter_and_order(game: Game) -> None:
    seats = rows.select(Seat, order_by="index", game=game.pk)
    expected = list(Seat.objects.filter(game=game).order_by("index"))
    assert [_fields(s) for s in seats] == [_fields(s) for s in expected]
    assert rows.select(Seat, game=game.pk, kind=SeatKind.AI) == []


def test_update_changes_the_matching_rows_only(game: Game) -> None:
    later = timezone.now() + timedelta(days=1)
    changed = rows.update(
        Game, {"version": 5, "state": {"x": [None, True]}, "deadline": later}, id=game.pk, version=0
    )
    stale = rows.update(Game, {"version": 9}, id=game.pk, version=0)
    row = Game.objects.get(pk=game.pk)
    assert (changed, stale) == (1, 0)
    assert (row.version, row.state, row.deadline) == (5, {"x": [None, True]}, later)


def test_insert_sets_the_key_and_automatic_fields(game: Game) -> None:
    before = timezone.now()
    note = Notification(user=game.created_by, kind=Kind.YOUR_TURN, game_id=game.pk, data={"a": 1})
    assert rows.insert(note) is True
    stored = Notification.objects.get(pk=note.pk)
    assert note.pk is not None
    assert stored.created_at >= before and stored.created_at == note.created_at
    assert stored.data == {"a": 1}
    # Saved again, it is the same row, as after Django's own insert.
    note.data = {"a": 2}
    note.save()
    assert Notification.objects.filter(pk=note.pk).get().data == {"a": 2}
    assert Notification.objects.count() == 1


def test_insert_ignoring_conflicts_drops_a_duplicate(game: Game) -> None:
    def make() -> Notification:
        return Notification(
            user=game.created_by, kind=Kind.YOUR_TURN, game_id=game.pk, dedupe_key="turn:1"
        )

    first, second = make(), make()
    assert rows.insert(first, ignore_conflicts=True) is True
    assert rows.insert(second, ignore_conflicts=True) is False
    assert second.pk is None
    assert Notification.objects.filter(dedupe_key="turn:1").count() == 1


def test_set_flag_sets_some_rows_and_clears_others_in_one_statement(game: Game) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first, second = Seat.objects.filter(game=game).order_by("index")
    Seat.objects.filter(pk=first.pk).update(pending=True)
    with CaptureQueriesContext(connection) as captured:
        changed = rows.set_flag(Seat, "pending", [second.pk], [first.pk])
    assert changed == 2
    assert len(captured.captured_queries) == 1
    assert dict(Seat.objects.filter(game=game).values_list("index", "pending")) == {
        0: False,
        1: True,
    }
    assert rows.set_flag(Seat, "pending", [first.pk, second.pk], []) == 2
    assert set(Seat.objects.filter(game=game).values_list("pending", flat=True)) == {True}
    assert rows.set_flag(Seat, "pending", [], []) == 0


def test_update_then_insert_writes_the_row_only_when_the_update_matched(game: Game) -> None:
    from games.models import Move

    def entry(number: int) -> Move:
        return Move(game=game, number=number, seat=0, action={"type": "draw_blind"}, version=1)

    logged = entry(1)
    assert rows.update_then_insert(Game, {"version": 1}, {"id": game.pk, "version": 0}, logged)
    stale = entry(2)
    assert not rows.update_then_insert(Game, {"version": 7}, {"id": game.pk, "version": 0}, stale)
    assert Game.objects.get(pk=game.pk).version == 1
    assert stale.pk is None
    stored = Move.objects.get(game=game)
    assert (stored.pk, stored.number, stored.action) == (logged.pk, 1, {"type": "draw_blind"})
    assert stored.created_at == logged.created_at


def test_the_game_read_by_hand_is_what_the_orm_prefetches(game: Game, django_assert_num_queries):
    """``games.queries.sql`` reads a game with its seats into ``game.seated`` as
    ``Prefetch(..., to_attr="seated")`` would: the same instances, in fewer queries."""
    from django.db import transaction
    from django.db.models import Prefetch

    from games.queries import sql

    seats = Seat.objects.select_related("user").order_by("index")
    expected = (
        Game.objects.select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=seats, to_attr="seated"))
        .get(pk=game.pk)
    )
    for lock, queries in ((False, 1), (True, 2)):
        with transaction.atomic(), django_assert_num_queries(queries):
            found = sql.game_with_seats(game.pk, lock=lock)
            assert found is not None
            read = found.seated
            names = [s.user.username if s.user else None for s in read]
            assert found.created_by.username == expected.created_by.username
        assert _fields(found) == _fields(expected)
        assert [_fields(s) for s in read] == [_fields(s) for s in expected.seated]
        assert names == [s.user.username if s.user else None for s in expected.seated]
        assert all(s.game is found for s in read)
        assert found.seats.count() == 2 and list(found.seats.filter(index=1)) == [read[1]]
