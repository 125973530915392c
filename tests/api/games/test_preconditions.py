"""Which stale versions a move may be sent against: 412 only when the mover's decision or
what it knows really changed since the version it decided on."""

from __future__ import annotations

import pytest

from games.models import Game

from .conftest import act, create_game

pytestmark = pytest.mark.django_db


def _offer(client, game_id):
    view = client.get(f"/api/v1/games/{game_id}").json()
    return view["version"], [t["id"] for t in view["state"]["you"]["offered_tickets"]]


def _keep(client, game_id, version, tickets):
    return act(client, game_id, {"type": "keep_tickets", "tickets": tickets}, version)


@pytest.fixture
def choosing(creator, opponent):
    """A started 2-player game in which both seats still choose their first tickets."""
    game = create_game(creator, first_seat=0)
    joined = opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert joined.status_code == 200
    return game["id"]


def test_a_first_ticket_choice_sent_against_a_version_before_anothers_choice_is_accepted(
    choosing, creator, opponent
):
    seen, offered = _offer(opponent, choosing)
    assert _keep(creator, choosing, seen, _offer(creator, choosing)[1]).status_code == 200
    assert Game.objects.get(pk=choosing).version == seen + 1

    late = _keep(opponent, choosing, seen, offered)

    assert late.status_code == 200, late.content
    assert late.json()["state"]["phase"] == "playing"
    assert late.json()["version"] == seen + 2


def test_the_if_match_header_follows_the_same_rule(choosing, creator, opponent):
    seen_tag = opponent.get(f"/api/v1/games/{choosing}")["ETag"]
    _, offered = _offer(opponent, choosing)
    _keep(creator, choosing, None, _offer(creator, choosing)[1])
    late = opponent.post(
        f"/api/v1/games/{choosing}/actions",
        {"action": {"type": "keep_tickets", "tickets": offered}},
        format="json",
        HTTP_IF_MATCH=seen_tag,
    )
    assert late.status_code == 200, late.content


def test_a_version_older_than_the_start_of_the_choice_is_refused(creator, opponent):
    game = create_game(creator, first_seat=0)
    lobby_version = creator.get(f"/api/v1/games/{game['id']}").json()["version"]
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    _, offered = _offer(creator, game["id"])

    refused = _keep(creator, game["id"], lobby_version, offered)

    assert refused.status_code == 412
    assert refused.json()["code"] == "VERSION_MISMATCH"


def test_a_version_from_after_the_first_choice_ended_is_still_checked_exactly(
    choosing, creator, opponent
):
    seen, offered = _offer(creator, choosing)
    assert _keep(creator, choosing, seen, offered).status_code == 200
    assert _keep(opponent, choosing, None, _offer(opponent, choosing)[1]).status_code == 200
    # Now the creator is to move; a draw decided on any earlier version is stale.
    current = creator.get(f"/api/v1/games/{choosing}").json()["version"]
    stale = act(creator, choosing, {"type": "draw_blind"}, current - 1)
    assert stale.status_code == 412
    assert act(creator, choosing, {"type": "draw_blind"}, current).status_code == 200


def test_a_seat_that_moved_since_cannot_send_another_move_on_the_old_version(
    choosing, creator, opponent
):
    seen, offered = _offer(creator, choosing)
    assert _keep(creator, choosing, seen, offered).status_code == 200

    again = _keep(creator, choosing, seen, offered)

    assert again.status_code == 412
    assert again.json()["current_version"] == seen + 1
