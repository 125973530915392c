"""The web client in headless Chromium, against the ASGI server and only the public API."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.domain.seats import seat_of
from games.models import Game
from games.queries.games import game_or_404
from games.serializers.games import game_detail

from .pages import (
    DESKTOP,
    PASSWORD,
    PHONE,
    TIMEOUT_MS,
    create_game_against_ai,
    log_in,
    play_one_decision,
    sign_up,
)


def view_box(page) -> list[float]:
    return [float(x) for x in page.get_attribute("svg.board", "viewBox").split()]


pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fast_passwords")]


def test_a_new_player_beats_the_ai_to_the_end_by_clicking(browser, web_server, artifacts):
    page = browser.new_page(viewport=DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(page, web_server.url, "walter")
    game_id = create_game_against_ai(page)
    assert page.locator("#countdown").inner_text() != ""

    played: dict[str, int] = {}
    last_version = None
    for _ in range(600):
        fresh_prompt = f'#prompt[data-version]:not([data-version="{last_version}"])'
        page.wait_for_selector(f"#result:not([hidden]) table, {fresh_prompt}", timeout=TIMEOUT_MS)
        if page.is_visible("#result table"):
            break
        prompt = page.locator("#prompt")
        kind = prompt.get_attribute("data-kind")
        last_version = prompt.get_attribute("data-version")
        if played.get("turn_action") == 4:
            # Hovering a ticket lights up its two cities on the map.
            page.hover("#tickets li.ticket >> nth=0")
            assert page.locator("g.city.hl").count() == 2
            page.screenshot(path=str(artifacts / "desktop-ticket-hover.png"))
        play_one_decision(page, kind, played)
        if played.get("claim") == 6 and kind == "turn_action":
            page.screenshot(path=str(artifacts / "desktop-playing.png"))
    else:
        pytest.fail(f"the game did not end; decisions played: {played}")

    game = game_or_404(game_id)
    assert game.status == "finished"
    assert played["choose_initial_tickets"] == 1
    assert played["draw_tickets"] == 1 and played["keep_tickets"] == 1
    assert played["claim"] > 5
    assert played["station"] == 1
    # The map shows the player's routes exactly as the game holds them.
    user = get_user_model().objects.get(username="walter")
    seat = game.seats.get(user=user).index
    held = game_detail(game, seat_of(user, game))["state"]["seats"][seat]["routes"]
    shown = page.eval_on_selector_all(
        f'g.route.claimed[data-owner="{seat}"]', "nodes => nodes.map(n => n.dataset.route)"
    )
    assert held and sorted(shown) == sorted(held)
    # The score sheet lists the four seats, and the breakdown is drawn on the map.
    rows = page.locator("#result table tbody tr")
    assert rows.count() == 4
    assert page.locator("#result tr.picked").count() == 1
    assert page.locator("svg .overlays line").count() > 0
    page.screenshot(path=str(artifacts / "desktop-result.png"))

    page.click("#replay-link")
    page.wait_for_selector("#replay-step", timeout=TIMEOUT_MS)
    total = int(page.get_attribute("#replay-step", "max"))
    assert total == game.moves.count()
    assert page.locator("g.route.claimed").count() == 0
    page.click("#replay-last")
    assert page.inner_text("#replay-counter") == f"Move {total} of {total}"
    claimed_at_end = page.locator("g.route.claimed").count()
    assert page.locator("#replay-moves li").count() == total
    assert page.get_attribute("#replay-moves li.current", "data-move") == str(total)
    page.click("#replay-prev")
    assert page.inner_text("#replay-counter") == f"Move {total - 1} of {total}"
    assert page.get_attribute("#replay-moves li.current", "data-move") == str(total - 1)
    page.screenshot(path=str(artifacts / "desktop-replay.png"))
    page.goto(f"{web_server.url}/#/game/{game_id}")
    page.wait_for_selector("#result table", timeout=TIMEOUT_MS)
    assert page.locator("g.route.claimed").count() == claimed_at_end
    assert errors == []


def test_a_phone_shows_the_board_and_the_hand(browser, web_server, artifacts):
    page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    sign_up(page, web_server.url, "phoebe")
    page.screenshot(path=str(artifacts / "phone-lobby.png"))
    create_game_against_ai(page)
    page.wait_for_selector("#hand .chip", timeout=TIMEOUT_MS)

    board = page.locator("svg.board").bounding_box()
    assert board is not None and 300 < board["width"] <= 390
    assert page.is_visible("#hand .chip")
    assert page.locator("#hand .chip").count() >= 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The ticket choice comes first, right under the board.
    assert page.locator("#prompt[data-kind=choose_initial_tickets]").count() == 1
    page.screenshot(path=str(artifacts / "phone-game.png"), full_page=True)

    # Zoom narrows the map's view box: the map grows inside its frame, the page still fits.
    full = view_box(page)[2]
    page.tap("#board button.zoom")
    page.wait_for_selector("#board button.zoom[aria-pressed=true]", timeout=TIMEOUT_MS)
    assert view_box(page)[2] < full / 2
    assert page.locator("svg.board").bounding_box() == board
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / "phone-zoomed.png"))
    page.tap("#board button.zoom")
    page.wait_for_selector("#board button.zoom[aria-pressed=false]", timeout=TIMEOUT_MS)
    assert view_box(page)[2] == full

    # Keeping no ticket is refused by the API, and its message is shown as it is.
    for box in page.locator("#prompt input[type=checkbox]").all():
        box.uncheck()
    page.tap("#keep-tickets")
    page.wait_for_selector("#error:not([hidden])", timeout=TIMEOUT_MS)
    assert page.get_attribute("#error", "data-code")
    assert page.inner_text("#error").strip()
    assert page.locator("#prompt[data-kind=choose_initial_tickets]").count() == 1
    page.screenshot(path=str(artifacts / "phone-error.png"))


def test_an_invitation_is_accepted_and_an_open_seat_joined_from_the_lobby(
    browser, web_server, artifacts
):
    users = get_user_model().objects
    for name in ("ada", "bert", "cleo"):
        users.create_user(name, password=PASSWORD)
    host = APIClient()
    host.force_authenticate(users.get(username="ada"))
    seats = [{"type": "creator"}, {"type": "invite", "username": "bert"}, {"type": "open"}]
    created = host.post("/api/v1/games", {"board": "europe", "seats": seats}, format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]

    bert = browser.new_page(viewport=DESKTOP)
    log_in(bert, web_server.url, "bert")
    bert.wait_for_selector(f'#invitations li[data-game="{game_id}"]', timeout=TIMEOUT_MS)
    bert.screenshot(path=str(artifacts / "desktop-lobby-invitation.png"))
    bert.click(f'#invitations li[data-game="{game_id}"] button.primary')
    bert.wait_for_url(re.compile(rf".*#/game/{game_id}$"), timeout=TIMEOUT_MS)
    bert.wait_for_selector("#status .badge:text('lobby')", timeout=TIMEOUT_MS)

    cleo = browser.new_page(viewport=DESKTOP)
    log_in(cleo, web_server.url, "cleo")
    cleo.wait_for_selector(f'#open-games li[data-game="{game_id}"]', timeout=TIMEOUT_MS)
    cleo.click(f'#open-games li[data-game="{game_id}"] button.primary')
    cleo.wait_for_selector("#prompt[data-kind=choose_initial_tickets]", timeout=TIMEOUT_MS)

    # The last seat taken starts the game; bert's page sees it by polling, without a reload.
    bert.wait_for_selector("#prompt[data-kind=choose_initial_tickets]", timeout=TIMEOUT_MS)
    assert Game.objects.get(pk=game_id).status == "active"
    names = [s.user.username for s in Game.objects.get(pk=game_id).seats.order_by("index")]
    assert names == ["ada", "bert", "cleo"]
