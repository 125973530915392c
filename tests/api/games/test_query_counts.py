"""Queries per request on the hot paths of a game: polling the view and playing a move.

The numbers are ceilings, not exact counts: a change that adds a query per seat or per
move (an N+1) fails here before it shows in ``bench/load.py``.
"""

from __future__ import annotations

import re

import pytest

from games.queries.games import current_epoch

from .conftest import create_game, keep_all_initial

# The token with its user (by digest, one query); the game with its creator and its seats
# with their users (one query). A game view also reads the version and the caller's seat
# first (POLL_QUERIES), to serve a view already rendered.
VIEW_QUERIES = 2
# Rendering a view reads the game with its creator and its seats with their users, in
# one query (games/queries/sql.py; docs/decisions/0300).
GAME_READ = 1
# A poll whose If-None-Match matches: the token, then the game's version, status, deadline
# and the caller's seat in one query; neither the state nor the seats are loaded.
POLL_QUERIES = 2
# The token; the locked game with its creator (its deadline checked on that row); its
# seats with their users; the state and version written; the move logged; and the
# savepoint and its release (the test runs inside a transaction). The pending flags are
# not written when the same seat is still to move, and the new view is made from memory.
# (On PostgreSQL the version bump and the log entry are one statement:
# ``test_query_counts_postgres.py``.)
MOVE_QUERIES = 7
# A move that ends the turn also writes the two pending flags that change (one statement)
# and tells the next player: the notification, which its unique key drops if it is a
# duplicate, after one query for the player's preferences and whether they have any active
# webhook or device (none here, so neither is read, and no outbox row is written). It was
# 13: a statement per flag, and preferences, webhooks and devices read one by one.
TURN_END_QUERIES = 10


@pytest.fixture
def game(users, auth_client, creator, opponent):
    created = create_game(creator, first_seat=0)
    opponent.post(f"/api/v1/games/{created['id']}/join", {}, format="json")
    keep_all_initial(created["id"], creator, opponent)
    host, guest = auth_client(users["creator"]), auth_client(users["opponent"])
    for client in (host, guest):  # the first use of a token records it; later ones do not
        client.get("/api/v1/auth/me")
    current_epoch()  # read once per process, by its first game view or move
    return created["id"], host, guest


def test_the_game_view_takes_a_fixed_number_of_queries(game, django_assert_max_num_queries):
    game_id, host, _ = game
    with django_assert_max_num_queries(POLL_QUERIES + GAME_READ):  # rendered: the game read
        response = host.get(f"/api/v1/games/{game_id}")
    assert response.status_code == 200
    with django_assert_max_num_queries(POLL_QUERIES + GAME_READ):
        stale = host.get(f"/api/v1/games/{game_id}", HTTP_IF_NONE_MATCH='"g1-v0-s0"')
    assert stale.status_code == 200


def test_a_view_already_rendered_is_served_without_loading_the_game(
    game, django_assert_num_queries
):
    game_id, host, guest = game
    url = f"/api/v1/games/{game_id}"
    first = host.get(url)
    with django_assert_num_queries(POLL_QUERIES) as captured:
        again = host.get(url)
    assert again.status_code == 200
    assert again.content == first.content
    assert again["ETag"] == first["ETag"]
    assert again["Content-Type"] == "application/json"
    assert '"state"' not in " ".join(q["sql"] for q in captured.captured_queries)
    # Another seat's view is its own, not the host's.
    theirs = guest.get(url)
    assert theirs.json()["your_seat"] == 1
    assert theirs.json()["state"]["you"] != first.json()["state"]["you"]


def test_a_poll_that_matches_takes_two_queries(game, django_assert_num_queries):
    game_id, host, guest = game
    url = f"/api/v1/games/{game_id}"
    tag = host.get(url)["ETag"]
    with django_assert_num_queries(POLL_QUERIES) as captured:
        again = host.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304
    assert again["ETag"] == tag
    assert again.content == b""
    sql = " ".join(q["sql"] for q in captured.captured_queries)
    assert '"state"' not in sql
    # The seat is part of the tag: the other player's tag does not match the host's.
    assert guest.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_an_outsiders_matching_poll_gets_the_public_tag_in_two_queries(
    game, users, auth_client, django_assert_num_queries
):
    game_id, _, _ = game
    outsider = auth_client(users["outsider"])
    url = f"/api/v1/games/{game_id}"
    tag = outsider.get(url)["ETag"]
    assert re.search(r'-sx-e[0-9a-f]+"$', tag)
    with django_assert_num_queries(POLL_QUERIES):
        again = outsider.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304


def test_legal_actions_take_a_fixed_number_of_queries(game, django_assert_max_num_queries):
    game_id, host, _ = game
    with django_assert_max_num_queries(VIEW_QUERIES):
        response = host.get(f"/api/v1/games/{game_id}/legal-actions")
    assert response.status_code == 200


def test_a_move_takes_a_fixed_number_of_queries(game, django_assert_max_num_queries):
    assert_move_queries(game, django_assert_max_num_queries, MOVE_QUERIES, TURN_END_QUERIES)


def assert_move_queries(game, assert_max, move_queries: int, turn_end_queries: int) -> None:
    from games.models import Move, Seat
    from notifications.models import Notification

    game_id, host, _ = game
    version = host.get(f"/api/v1/games/{game_id}").json()["version"]
    url = f"/api/v1/games/{game_id}/actions"
    with assert_max(move_queries):
        first = host.post(
            url, {"version": version, "action": {"type": "draw_blind"}}, format="json"
        )
    assert first.status_code == 200
    # The second card ends the turn: the opponent is told it is theirs.
    with assert_max(turn_end_queries):
        second = host.post(
            url, {"version": version + 1, "action": {"type": "draw_blind"}}, format="json"
        )
    assert second.status_code == 200
    assert second.json()["your_turn"] is False
    # What the fewer statements wrote: both log entries, the flags, the opponent's notice.
    logged = Move.objects.filter(game_id=game_id).order_by("-number")[:2]
    assert [m.version for m in logged] == [version + 2, version + 1]
    assert dict(Seat.objects.filter(game_id=game_id).values_list("index", "pending")) == {
        0: False,
        1: True,
    }
    notice = Notification.objects.get(dedupe_key=f"game:{game_id}:v{version + 2}:turn:1")
    assert notice.kind == "your_turn"


def test_after_a_move_every_player_gets_the_new_view_without_loading_the_game(
    game, django_assert_num_queries, django_capture_on_commit_callbacks
):
    from django.core.cache import cache

    game_id, host, guest = game
    url = f"/api/v1/games/{game_id}"
    version = host.get(url).json()["version"]
    with django_capture_on_commit_callbacks(execute=True):
        moved = host.post(
            f"{url}/actions", {"version": version, "action": {"type": "draw_blind"}}, format="json"
        )
    assert moved.status_code == 200
    with django_assert_num_queries(2 * POLL_QUERIES):
        kept_host, kept_guest = host.get(url), guest.get(url)
    assert kept_host.json()["version"] == kept_guest.json()["version"] == version + 1
    assert kept_host.content == moved.content
    # What was kept is what rendering the game now gives.
    cache.clear()
    assert guest.get(url).content == kept_guest.content
    assert host.get(url).content == kept_host.content


def test_a_kept_view_is_not_served_once_the_row_says_another_write_made_that_version(
    game, django_assert_num_queries
):
    """A database restored from a backup (or a rolled-back test database) can reach the
    same version number again with other contents: the write time tells them apart."""
    from datetime import timedelta

    from games.models import Game

    game_id, host, _ = game
    url = f"/api/v1/games/{game_id}"
    host.get(url)
    row = Game.objects.get(pk=game_id)
    Game.objects.filter(pk=game_id).update(updated_at=row.updated_at + timedelta(seconds=1))
    with django_assert_num_queries(POLL_QUERIES + GAME_READ):  # rendered again: the game read
        assert host.get(url).status_code == 200
