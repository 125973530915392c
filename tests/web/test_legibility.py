"""A board and panels a new player can read: player colours apart from the card colours,
claimed routes as train cars, cards named by symbol and word, the state of play at a
glance, the board's name in titles, a phone layout that keeps the board in view, lobby
rows with the board and final scores, and the winner on the first screen."""

from __future__ import annotations

import pytest

from .colours import board_colours
from .pages import (
    PHONE,
    TIMEOUT_MS,
    finish_with_ai,
    game_against_ai,
    keep_all_offered,
    make_user,
    open_as,
    two_player_game,
    wait_for_prompt,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fast_passwords")]

CARD_HEX = {hex_ for name, hex_ in board_colours()[0].items() if name not in ("gray", "locomotive")}


def test_claimed_routes_are_train_cars_in_colours_no_card_has(browser, web_server, artifacts):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=3)
    finish_with_ai(game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    page.wait_for_selector("#result table", timeout=TIMEOUT_MS)
    cars = page.eval_on_selector_all(
        "g.route.claimed",
        """nodes => nodes.map(n => ({
            fills: [...n.querySelectorAll('rect.car')].map(r => r.getAttribute('fill')),
            windows: [...n.querySelectorAll('rect.window')]
                .map(w => getComputedStyle(w).display)}))""",
    )
    assert cars
    for car in cars:
        assert len(set(car["fills"])) == 1 and car["fills"][0].lower() not in CARD_HEX
        assert car["windows"] and "none" not in car["windows"]
    # A route nobody claimed shows no window: its cars get theirs when it is claimed.
    slots = page.eval_on_selector_all(
        "g.route:not(.claimed) rect.window", "nodes => nodes.map(w => getComputedStyle(w).display)"
    )
    assert set(slots) <= {"none"}
    assert page.locator("g.route:not(.claimed) rect.car").count() > 0
    # The winner is named above the whole score sheet.
    winner = page.inner_text("#winner")
    assert "win" in winner or "share first place" in winner
    page.screenshot(path=str(artifacts / "desktop-finished.png"))


def test_cards_keep_their_colour_and_carry_a_symbol_and_a_name(browser, web_server):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert, first_seat=1)
    keep_all_offered(ada, game_id)
    keep_all_offered(bert, game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    page.wait_for_selector("#whose-turn:has-text('Waiting for bert')", timeout=TIMEOUT_MS)
    faces = page.eval_on_selector_all(
        "#market button.card-face",
        """nodes => nodes.map(n => ({card: n.dataset.card, disabled: n.disabled,
            opacity: getComputedStyle(n).opacity,
            sym: n.querySelector('.sym')?.textContent,
            name: n.querySelector('.name')?.textContent}))""",
    )
    assert len(faces) == 5
    for face in faces:
        assert face["disabled"] and face["opacity"] == "1"  # not faded while not my turn
        assert face["sym"]
        assert face["name"] == ("loco" if face["card"] == "locomotive" else face["card"])
    chips = page.eval_on_selector_all(
        "#hand .chip", "nodes => nodes.map(n => [n.getAttribute('aria-label'), n.textContent])"
    )
    assert chips and all(label and text.strip() for label, text in chips)
    assert page.locator("#score-track .lane").count() == 2
    assert "connected" in page.inner_text("#tickets h3")


def test_routes_can_be_claimed_from_the_keyboard(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "turn_action")
    route = page.locator("g.route.selectable").first
    assert route.get_attribute("tabindex") == "0"
    assert page.locator("g.route:not(.selectable)[tabindex]").count() == 0
    route.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#prompt button.pay-option", timeout=TIMEOUT_MS)
    assert page.inner_text("#prompt h3").startswith("Claim ")


def test_a_board_without_stations_is_named_and_has_no_stations_column(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=2, board="usa")
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "choose_initial_tickets")
    assert page.inner_text("#status h2").startswith("USA · game")
    assert "USA" in page.title() and "Europe" not in page.title()
    heads = page.locator("#players th").all_inner_texts()
    assert "Stations" not in heads and "Cards" in heads and "Trains" in heads


def test_the_lobby_names_each_board_and_shows_final_scores(browser, web_server, artifacts):
    ada = make_user("ada")
    finished = game_against_ai(ada, ais=1, board="switzerland")
    finish_with_ai(finished)
    running = game_against_ai(ada, ais=1, board="usa")
    page = open_as(browser, web_server.url, ada, "#/")
    row = page.locator(f'#my-games li[data-game="{finished}"]')
    row.locator(".scores .score").first.wait_for(timeout=TIMEOUT_MS)
    assert row.locator("a").inner_text() == f"Switzerland #{finished}"
    scores = row.locator(".scores").inner_text()
    assert scores.startswith("1. ") and "you" in scores
    assert page.locator(f'#my-games li[data-game="{running}"] a').inner_text() == f"USA #{running}"
    assert page.locator(".badge.your-turn").bounding_box()["height"] < 30
    page.screenshot(path=str(artifacts / "desktop-lobby.png"))
    # The new-game form offers only the player counts of the board chosen.
    page.select_option("select[name=board]", "switzerland")
    counts = page.eval_on_selector_all(
        "select[name=players] option", "nodes => nodes.map(n => n.value)"
    )
    assert counts == ["2", "3"]
    assert page.locator(".seat-row").count() == 2


def test_a_phone_keeps_the_board_in_view_with_the_hand_and_the_market(
    browser, web_server, artifacts
):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=3)
    keep_all_offered(ada, game_id)
    page = open_as(
        browser,
        web_server.url,
        ada,
        f"#/game/{game_id}",
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
    )
    wait_for_prompt(page, "turn_action")
    assert page.locator(".topbar").bounding_box()["height"] < 48  # one line
    page.locator("#draw-blind").scroll_into_view_if_needed()
    board = page.locator("svg.board").bounding_box()
    for part in ("#hand .chip", "#market button.card-face", "#draw-blind", "#prompt h3"):
        box = page.locator(part).first.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1, part
    assert board["y"] >= 0 and board["height"] > 150  # still in view, above them
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifacts / "phone-playing.png"))


def test_a_phone_shows_the_winner_and_the_score_sheet_first(browser, web_server, artifacts):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=3)
    finish_with_ai(game_id)
    page = open_as(
        browser, web_server.url, ada, f"#/game/{game_id}", viewport=PHONE, is_mobile=True
    )
    page.wait_for_selector("#result td.total", timeout=TIMEOUT_MS)
    for part in ("#winner", "#result table"):
        box = page.locator(part).bounding_box()
        assert box and box["y"] + box["height"] <= PHONE["height"], part
    page.screenshot(path=str(artifacts / "phone-result.png"))


def test_a_phone_pinches_and_drags_the_map(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    page = open_as(
        browser,
        web_server.url,
        ada,
        f"#/game/{game_id}",
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
    )
    wait_for_prompt(page, "choose_initial_tickets")
    box = page.locator("svg.board").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, *points: tuple[float, float]) -> None:
        fingers = [{"x": px, "y": py, "id": i} for i, (px, py) in enumerate(points)]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": fingers})

    def view_box() -> list[float]:
        return [float(v) for v in page.get_attribute("svg.board", "viewBox").split()]

    full = view_box()
    touch("touchStart", (x - 20, y), (x + 20, y))
    for step in range(1, 7):
        touch("touchMove", (x - 20 - 12 * step, y), (x + 20 + 12 * step, y))
    touch("touchEnd")
    pinched = view_box()
    assert pinched[2] < full[2] / 2
    assert page.get_attribute("#board button.zoom", "aria-pressed") == "true"
    # Zoomed in, one finger drags the map.
    touch("touchStart", (x, y))
    for step in range(1, 6):
        touch("touchMove", (x + 12 * step, y + 6 * step))
    touch("touchEnd")
    dragged = view_box()
    assert dragged[0] < pinched[0] and dragged[2] == pinched[2]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.click("#board button.zoom")
    page.wait_for_selector("#board button.zoom[aria-pressed=false]", timeout=TIMEOUT_MS)
    assert view_box() == full
