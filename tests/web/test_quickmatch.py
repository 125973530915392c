"""Quick match and rematch in the web client: a seek made from the lobby waits, shows its
time, can be cancelled, and follows its game when another player's seek pairs with it; a
finished game offers a rematch, which makes the same table again."""

from __future__ import annotations

import uuid

import pytest

from games.models import Game
from matchmaking.models import Seek

from .pages import (
    PHONE,
    TIMEOUT_MS,
    api_as,
    finish_with_ai,
    fits_the_width,
    game_against_ai,
    make_user,
    open_as,
    unlabelled_controls,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fast_passwords")]

SEEK = {
    "board": "europe",
    "players_min": 2,
    "players_max": 2,
    "turn_time_limit": 86400,
    "rated": False,
    "rating_window": None,
    "ai_fill_after": None,
}


def choose_two_casual_players(page) -> None:
    page.select_option("select[name=qm-board]", "europe")
    page.select_option("select[name=qm-players]", "2-2")
    page.select_option("select[name=qm-pace]", "86400")
    page.uncheck("input[name=qm-rated]")


def test_a_seek_waits_is_cancelled_then_pairs_with_another_players(browser, web_server):
    ada, bert = make_user("ada"), make_user("bert")
    page = open_as(browser, web_server.url, ada, "#/")
    page.wait_for_selector(".quick-match #quick-match", timeout=TIMEOUT_MS)
    page.wait_for_selector("#app[data-live=stream]", timeout=TIMEOUT_MS)
    assert unlabelled_controls(page) == []

    choose_two_casual_players(page)
    page.click("#quick-match")
    page.wait_for_selector(".quick-match[data-seek-status=waiting]", timeout=TIMEOUT_MS)
    assert "Looking for players" in page.inner_text("#seek-status")
    page.click("#seek-cancel")
    page.wait_for_selector(".quick-match[data-seek-status=cancelled]", timeout=TIMEOUT_MS)
    assert Seek.objects.get(user=ada).status == "cancelled"
    assert page.locator("#quick-match").is_visible()

    page.click("#quick-match")
    page.wait_for_selector(".quick-match[data-seek-status=waiting]", timeout=TIMEOUT_MS)
    # A reload finds the seek still waiting.
    page.reload()
    page.wait_for_selector(".quick-match[data-seek-status=waiting]", timeout=TIMEOUT_MS)

    # bert's seek, through the API, pairs with ada's; her page follows to the game.
    made = api_as(bert).post(
        "/api/v1/seeks", SEEK, format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex
    )
    assert made.status_code == 201, made.content
    page.wait_for_function("() => location.hash.startsWith('#/game/')", timeout=TIMEOUT_MS)
    game_id = int(page.evaluate("location.hash").rsplit("/", 1)[1])
    game = Game.objects.get(pk=game_id)
    assert sorted(s.user.username for s in game.seats.all()) == ["ada", "bert"]
    assert game.rated is False
    assert set(Seek.objects.filter(status="matched").values_list("game_id", flat=True)) == {game_id}


def test_the_quick_match_form_fits_a_phone(browser, web_server):
    ada = make_user("ada")
    page = open_as(browser, web_server.url, ada, "#/", viewport=PHONE)
    page.wait_for_selector(".quick-match #quick-match", timeout=TIMEOUT_MS)
    assert fits_the_width(page)
    page.click("#quick-match")
    page.wait_for_selector(".quick-match[data-seek-status=waiting]", timeout=TIMEOUT_MS)
    assert fits_the_width(page)


def test_a_finished_game_offers_a_rematch_of_the_same_table(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=2)
    finish_with_ai(game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    page.wait_for_selector(".rematch #rematch-rematch", timeout=TIMEOUT_MS)
    page.click("#rematch-rematch")
    page.wait_for_selector(".rematch[data-status=made] #rematch-game", timeout=TIMEOUT_MS)
    new_id = int(page.get_attribute("#rematch-game", "href").rsplit("/", 1)[1])
    old, new = Game.objects.get(pk=game_id), Game.objects.get(pk=new_id)
    assert (new.board, new.players, new.turn_time_limit) == (
        old.board,
        old.players,
        old.turn_time_limit,
    )
    assert [s.kind for s in new.seats.order_by("index")][1:] == ["ai", "ai"]
    page.click("#rematch-game")
    page.wait_for_function(f"() => location.hash === '#/game/{new_id}'", timeout=TIMEOUT_MS)
