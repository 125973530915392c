"""How waiting seeks form tables (matchmaking.rules), without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from matchmaking.rules import Waiting, Widening, tables, window_now

NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
WIDENING = Widening(points=50, seconds=30)


def waiting(i: int, low: int = 2, high: int = 4, **fields) -> Waiting:
    made = {
        "id": i,
        "user_id": 100 + i,
        "players_min": low,
        "players_max": high,
        "rating": 1500.0,
        "rating_window": None,
        "ai_fill_after": None,
        "created_at": NOW - timedelta(seconds=60 - i),
    }
    return Waiting(**{**made, **fields})


def _ids(found) -> list[list[int]]:
    return [[s.id for s in t.seeks] for t in found]


def test_a_window_widens_by_its_points_every_period():
    seek = waiting(0, rating_window=100, created_at=NOW - timedelta(seconds=61))
    assert window_now(seek, NOW, WIDENING) == 200
    assert window_now(waiting(1), NOW, WIDENING) is None


def test_ranges_must_overlap_and_the_table_have_room():
    seeks = [
        waiting(1, 2, 2),
        waiting(2, 3, 5),
        waiting(3, 2, 2),
        waiting(4, 3, 5),
        waiting(5, 3, 5),
    ]
    assert _ids(tables(seeks, set(), NOW, WIDENING)) == [[1, 3], [2, 4, 5]]


def test_a_seek_asking_for_more_players_steps_aside_for_a_table_that_can_form():
    seeks = [waiting(1, 2, 5), waiting(2, 5, 5), waiting(3, 2, 3)]
    assert _ids(tables(seeks, set(), NOW, WIDENING)) == [[1, 3]]


def test_a_blocked_pair_never_sits_together():
    seeks = [waiting(1), waiting(2), waiting(3)]
    blocked = {frozenset((101, 102))}
    assert _ids(tables(seeks, blocked, NOW, WIDENING)) == [[1, 3]]


def test_ai_seats_fill_only_when_every_seeker_allows_it_and_waited():
    fill = waiting(1, 3, 4, ai_fill_after=30)
    [table] = tables([fill], set(), NOW, WIDENING)
    assert table.ai_seats == 2
    assert tables([waiting(1, 3, 4, ai_fill_after=120)], set(), NOW, WIDENING) == []
    # Only those who allow it sit with AI seats: the other keeps waiting.
    [table] = tables([waiting(2, 3, 4), fill], set(), NOW, WIDENING)
    assert [s.id for s in table.seeks] == [1] and table.ai_seats == 2
