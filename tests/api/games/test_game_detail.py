from __future__ import annotations

import json

import pytest

from games.models import Game

pytestmark = pytest.mark.django_db


def test_a_seated_player_sees_its_own_hand_and_tickets(two_player_game, creator):
    view = creator.get(f"/api/v1/games/{two_player_game['id']}").json()
    assert view["your_seat"] == 0
    you = view["state"]["you"]
    assert sum(you["hand"].values()) == 4
    assert len(you["offered_tickets"]) == 4


def test_an_outsider_and_anonymous_get_the_public_view(two_player_game, outsider, anonymous):
    for client in (outsider, anonymous):
        view = client.get(f"/api/v1/games/{two_player_game['id']}").json()
        assert view["your_seat"] is None
        assert view["state"]["you"] is None
        assert [s["hand_size"] for s in view["state"]["seats"]] == [4, 4]


def test_no_persona_sees_the_seed_the_deck_or_another_hand(
    two_player_game, creator, opponent, outsider, anonymous
):
    game = Game.objects.get(pk=two_player_game["id"])
    seed = str(game.seed)
    secret_tickets = {
        seat: {game.state and t for t in game.state["offers"][seat]} for seat in (0, 1)
    }
    from engine import load_board

    board = load_board("europe")
    for client, seat in ((creator, 0), (opponent, 1), (outsider, None), (anonymous, None)):
        text = client.get(f"/api/v1/games/{game.pk}").content.decode()
        assert seed not in text
        assert '"deck"' not in text
        for other in (0, 1):
            if other == seat:
                continue
            for index in secret_tickets[other]:
                assert board.tickets[index].id not in text
    assert json.loads(text)["state"]["deck_size"] > 0


def test_the_etag_gives_304_until_the_game_changes(two_player_game, creator, opponent):
    url = f"/api/v1/games/{two_player_game['id']}"
    first = creator.get(url)
    tag = first["ETag"]
    assert creator.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    # Each viewer has its own tag: the bodies differ.
    assert opponent.get(url)["ETag"] != tag
    offered = [t["id"] for t in first.json()["state"]["you"]["offered_tickets"]]
    creator.post(
        f"{url}/actions",
        {
            "version": first.json()["version"],
            "action": {"type": "keep_tickets", "tickets": offered},
        },
        format="json",
    )
    again = creator.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200 and again["ETag"] != tag


def test_an_unknown_game_is_a_404_problem(creator):
    response = creator.get("/api/v1/games/999999")
    assert response.status_code == 404
    assert response.json()["code"] == "GAME_NOT_FOUND"


@pytest.mark.parametrize(
    "sent",
    [
        "{tag}",
        "W/{tag}",
        '"g0-v0-s0", {tag}',
        '"g0-v0-s0",W/{tag}',
        "*",
    ],
    ids=["strong", "weak", "a list", "a list, weak, no space", "any"],
)
def test_if_none_match_compares_as_rfc_9110_says(two_player_game, creator, sent):
    url = f"/api/v1/games/{two_player_game['id']}"
    tag = creator.get(url)["ETag"]
    again = creator.get(url, HTTP_IF_NONE_MATCH=sent.format(tag=tag))
    assert again.status_code == 304
    assert again["ETag"] == tag


def test_a_list_without_the_current_tag_gets_the_view(two_player_game, creator):
    url = f"/api/v1/games/{two_player_game['id']}"
    stale = '"g0-v0-s0", W/"g0-v1-s0"'
    assert creator.get(url, HTTP_IF_NONE_MATCH=stale).status_code == 200
