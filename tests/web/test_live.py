"""What happened, visibly: the move log, each opponent's last move on the map, "your turn"
in the page and its title, animations that can be turned off, and the event stream that
brings it all without polling."""

from __future__ import annotations

import re

import pytest

from games.models import Game

from .pages import (
    PHONE,
    TIMEOUT_MS,
    keep_all_offered,
    make_user,
    new_game,
    open_as,
    two_player_game,
    view_of,
    wait_for_prompt,
)
from .pages import (
    game_against_ai as new_game_against_ai,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fast_passwords")]


def game_requests(page, game_id: int) -> list[str]:
    """The reads of the game view the page makes from now on."""
    seen: list[str] = []
    view = re.compile(rf"/api/v1/games/{game_id}(\?.*)?$")
    page.on("request", lambda r: seen.append(r.url) if view.search(r.url) else None)
    return seen


def test_the_move_log_and_the_map_show_what_each_opponent_did(browser, web_server, artifacts):
    ada = make_user("ada")
    game_id = new_game_against_ai(ada, ais=3)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "choose_initial_tickets")
    assert page.title().startswith("▶ Your turn")
    assert "Europe" in page.title()
    assert page.inner_text("#whose-turn") == "Your turn"
    # The AI seats chose their tickets already: three lines, counts only.
    page.wait_for_selector("#log li:nth-child(3)", timeout=TIMEOUT_MS)
    assert page.locator("#log li").count() == 3
    assert all("kept" in t and "to start" in t for t in page.locator("#log li").all_inner_texts())

    page.click("#keep-tickets")
    for _ in range(12):  # draw cards from the deck until an opponent has claimed a route
        wait_for_prompt(page, "turn_action")
        if any(s["routes"] for s in view_of(ada, game_id)["state"]["seats"][1:]):
            break
        page.click("#draw-blind")
        wait_for_prompt(page, "second_card")
        page.click("#draw-blind")
    else:
        pytest.fail("no AI claimed a route in 12 turns")
    assert page.title().startswith("▶ Your turn")
    # At the top, what the others did since ada's last move.
    since = page.locator("#since li").all_inner_texts()
    assert since and all(t.startswith("AI ") for t in since), since
    # Every move the log API shows ada is in the log, in words.
    moves = Game.objects.get(pk=game_id).moves.count()
    page.wait_for_selector(f"#log li[data-move='{moves}']", timeout=TIMEOUT_MS)
    counts = page.eval_on_selector_all("#log li", "nodes => nodes.map(n => +n.dataset.moves)")
    assert sum(counts) == moves and max(counts) == 2  # a turn's two cards on one line
    assert page.locator("#log li:has-text(' and ')").count() >= 1
    texts = page.locator("#log li").all_inner_texts()
    # My own blind draws show their colours; the AI seats' do not.
    assert any(re.match(r"You drew an? \w+ from the deck", t) for t in texts), texts
    assert not any(re.search(r"AI \d.* drew an? \w+ from the deck", t) for t in texts), texts
    # Each opponent's last claim is highlighted on the map, in its owner's name.
    state = view_of(ada, game_id)["state"]
    recent = page.eval_on_selector_all(
        "g.route.recent", "nodes => nodes.map(n => [n.dataset.route, Number(n.dataset.owner)])"
    )
    assert recent
    for route, owner in recent:
        assert owner != 0 and route in state["seats"][owner]["routes"]
    assert page.locator("#players tr[data-seat='1'] .last-move").count() == 1
    page.screenshot(path=str(artifacts / "desktop-move-log.png"))

    # Animations can be turned off, and stay off.
    assert page.evaluate("document.documentElement.dataset.motion") == "on"
    page.uncheck("#pref-motion")
    assert page.evaluate("document.documentElement.dataset.motion") == "off"
    page.reload()
    page.wait_for_selector("#pref-motion", timeout=TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.motion") == "off"
    assert not page.is_checked("#pref-motion")


def test_the_stream_replaces_polling_while_it_is_open(browser, web_server):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert)
    keep_all_offered(ada, game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    page.wait_for_selector(".game[data-live=stream]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#whose-turn", timeout=TIMEOUT_MS)
    assert "Waiting for bert" in page.inner_text("#whose-turn")
    assert not page.title().startswith("▶")
    reads = game_requests(page, game_id)
    page.wait_for_timeout(3_000)  # polling would read the view about three times
    assert reads == []

    keep_all_offered(bert, game_id)  # bert's move reaches ada through the stream
    page.wait_for_selector("#log li:has-text('bert kept')", timeout=5_000)
    version = Game.objects.get(pk=game_id).version
    page.wait_for_selector(f'.game[data-version="{version}"]', timeout=5_000)
    assert 1 <= len(reads) <= 2  # the view is read after the move, not before


def test_the_page_polls_when_the_stream_cannot_be_opened(browser, web_server):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert)
    keep_all_offered(ada, game_id)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.route(re.compile(r".*/events\?.*"), lambda route: route.abort())
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", context=context)
    page.wait_for_selector("#whose-turn", timeout=TIMEOUT_MS)
    reads = game_requests(page, game_id)
    page.wait_for_timeout(2_500)
    assert page.get_attribute(".game", "data-live") == "poll"
    assert len(reads) >= 2
    keep_all_offered(bert, game_id)
    page.wait_for_selector("#log li:has-text('bert kept')", timeout=TIMEOUT_MS)


def test_the_lobby_hears_of_an_invitation_at_once(browser, web_server):
    ada, bert = make_user("ada"), make_user("bert")
    page = open_as(browser, web_server.url, bert, "#/")
    page.wait_for_selector("#app[data-live=stream]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#invitations li.muted", timeout=TIMEOUT_MS)
    game_id = new_game(ada, [{"type": "invite", "username": "bert"}])
    # Through the user's stream, well before the lobby's next read (every 10 s).
    page.wait_for_selector(f'#invitations li[data-game="{game_id}"]', timeout=3_000)
