"""The game table on a phone and on the desktop: the first screen's reads, the players
strip, claiming from a city or from the list, reduced motion and a turn played by keyboard."""

from __future__ import annotations

import re

import pytest

from engine.board import load_board

from .pages import (
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    act,
    api_as,
    game_against_ai,
    keep_all_offered,
    make_user,
    open_as,
    record_actions,
    two_player_game,
)
from .test_tap_targets import small_targets

pytestmark = pytest.mark.django_db(transaction=True)

READS = re.compile(r"/api/v1/(games/\d+(?:/legal-actions)?|boards/\w+)$")


def my_turn(user, ais: int = 3) -> int:
    game_id = game_against_ai(user, ais=ais)
    keep_all_offered(user, game_id)
    return game_id


def test_opening_a_game_reads_its_view_board_and_options_once_each(browser, web_server):
    ada = make_user("ada")
    game_id = my_turn(ada)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    reads: list[str] = []
    context.on("request", lambda r: READS.search(r.url) and reads.append(READS.search(r.url)[1]))
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", context=context)
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#draw-blind:not([disabled])", timeout=TIMEOUT_MS)
    # open_as loads the page three times (the origin, the hash, a reload): the last load's
    # reads are the page's own. Each is made once, by the script in the head, and used.
    last = reads[-3:]
    assert sorted(last) == sorted(
        [f"games/{game_id}", f"games/{game_id}/legal-actions", "boards/europe"]
    )


def strip_boxes(page) -> list[tuple[float, float, float, float]]:
    boxes = page.eval_on_selector_all(
        "#strip .strip-seat",
        "ns => ns.map(n => { const b = n.getBoundingClientRect();"
        " return [b.x, b.y, b.width, b.height]; })",
    )
    return [tuple(round(v, 1) for v in b) for b in boxes]


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_players_strip_stays_in_view_and_in_place(browser, web_server, viewport):
    ada = make_user("ada")
    game_id = my_turn(ada)
    size = PHONE if viewport == "phone" else {"width": 1280, "height": 700}
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", viewport=size)
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    page.screenshot(path=f"var/artifacts/web/strip-{viewport}.png")
    cells = page.locator("#strip .strip-seat")
    assert cells.count() == 4
    me = cells.nth(0)
    label = me.get_attribute("aria-label") or ""
    assert "ada (you)" in label and "45 trains" in label and "points" in label, label
    assert "to-move" in (me.get_attribute("class") or "")
    page.evaluate("() => window.scrollTo(0, 0)")
    before = strip_boxes(page)
    # The panels scroll to their end: the strip and the map stay on screen.
    page.eval_on_selector("#log", "n => n.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(100)
    box = page.locator("#strip").bounding_box()
    board = page.locator("#board").bounding_box()
    assert box is not None and 0 <= box["y"] < 20, box
    assert board is not None and board["y"] < size["height"] / 2, board
    # A whole turn (two cards, then the AIs): numbers change, the cells do not move.
    page.evaluate("() => window.scrollTo(0, 0)")
    page.click("#draw-blind")
    page.wait_for_selector("#prompt[data-kind=second_card]", timeout=TIMEOUT_MS)
    page.click("#draw-blind")
    page.wait_for_function(
        """() => {
            const me = document.querySelector('#strip .strip-seat[data-seat="0"]');
            return /\\b[67] cards\\b/.test(me.getAttribute('aria-label'));
        }""",
        timeout=TIMEOUT_MS,
    )
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    page.evaluate("() => window.scrollTo(0, 0)")
    assert strip_boxes(page) == before
    others = page.locator("#strip .strip-seat[data-seat='1'] .strip-last").inner_text().strip()
    assert others, "the AI's last move is shown"


def legal_actions(user, game_id: int) -> list[dict]:
    return api_as(user).get(f"/api/v1/games/{game_id}/legal-actions").json()["actions"]


# Whether each Europe route is a tunnel.
TUNNELS = {r.id: r.tunnel for r in load_board("europe").routes}


def ready_to_claim(user, game_id: int) -> list[dict]:
    """Cards drawn from the deck turn after turn (the AIs answering inline) until a route
    that is not a tunnel can be claimed: the claim_route actions then."""
    for _ in range(30):
        actions = legal_actions(user, game_id)
        claims = [a for a in actions if a["type"] == "claim_route"]
        if any(not TUNNELS[a["route"]] for a in claims):
            return claims
        act(user, game_id, {"type": "draw_blind"})
        act(user, game_id, {"type": "draw_blind"})
    raise AssertionError("no route became claimable")


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_tapping_a_city_lists_its_routes_to_claim_and_a_payment_claims(
    browser, web_server, viewport
):
    ada = make_user("ada")
    game_id = my_turn(ada, ais=1)
    claims = ready_to_claim(ada, game_id)
    options = (
        {"viewport": PHONE, "is_mobile": True, "has_touch": True}
        if viewport == "phone"
        else {"viewport": DESKTOP}
    )
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", **options)
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    sent = record_actions(page)
    # The first route that is not a tunnel (a tunnel's claim asks to pay for the turned
    # cards first), its first city tapped on the map.
    first = next(a for a in claims if not TUNNELS[a["route"]])
    route_cities = page.evaluate(
        "(id) => fetch('/api/v1/boards/europe').then(r => r.json())"
        ".then(b => b.routes.find(r => r.id === id).cities)",
        first["route"],
    )
    at = route_cities[0]
    page.locator(f'g.city[data-city="{at}"] circle').dispatch_event("click")
    sheet = page.locator("#prompt.sheet" if viewport == "phone" else "#prompt")
    page.wait_for_selector(
        f'#prompt li.claim-group[data-route="{first["route"]}"]', timeout=TIMEOUT_MS
    )
    assert at in page.inner_text("#claim-sheet-title")
    listed = page.eval_on_selector_all(
        "#prompt li.claim-group", "ns => ns.map(n => n.dataset.route)"
    )
    expected = {a["route"] for a in claims if a["route"] in listed}
    assert set(listed) == expected and first["route"] in listed
    assert page.evaluate("() => document.activeElement.id") == "claim-sheet-title"
    if viewport == "phone":
        box = sheet.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"] + 1, box
        assert page.locator("#board").bounding_box()["y"] < box["y"]
        page.screenshot(path=f"var/artifacts/web/claim-sheet-{viewport}.png")
        assert not small_targets(page)
    buttons = page.locator(f'#prompt button.pay-option[data-route="{first["route"]}"]')
    assert buttons.count() == sum(1 for a in claims if a["route"] == first["route"])
    buttons.first.click()
    page.wait_for_function(
        "(id) => document.querySelector(`g.route[data-route=\"${id}\"]`).dataset.owner === '0'",
        arg=first["route"],
        timeout=TIMEOUT_MS,
    )
    assert sent[-1]["action"]["type"] == "claim_route"
    assert sent[-1]["action"]["route"] == first["route"]


def test_the_list_of_every_route_one_can_claim(browser, web_server):
    ada = make_user("ada")
    game_id = my_turn(ada, ais=1)
    claims = ready_to_claim(ada, game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    page.click("#claimable-routes")
    page.wait_for_selector("#prompt li.claim-group", timeout=TIMEOUT_MS)
    listed = page.eval_on_selector_all(
        "#prompt li.claim-group", "ns => ns.map(n => n.dataset.route)"
    )
    assert sorted(listed) == sorted({a["route"] for a in claims})
    assert page.locator("#prompt button.pay-option").count() == len(claims)
    label = page.get_attribute("#prompt button.pay-option >> nth=0", "aria-label") or ""
    assert label.startswith("Claim ") and " with " in label, label
    page.click("#close-claims")
    page.wait_for_selector("#claimable-routes", timeout=TIMEOUT_MS)
    assert page.evaluate("() => document.activeElement.id") == "claimable-routes"


def test_reduced_motion_stops_every_animation_over_the_players_choice(browser, web_server):
    ada = make_user("ada")
    game_id = my_turn(ada, ais=1)
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    context.add_init_script("localStorage.setItem('ttr.prefs', JSON.stringify({motion: true}))")
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", context=context)
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    html = "document.documentElement.dataset.motion"
    assert page.evaluate(html) == "off"
    assert not page.is_checked("#pref-motion") and page.is_disabled("#pref-motion")
    # A claim arriving would pop and glow: with reduced motion nothing runs, even forced.
    moving = page.evaluate(
        """() => {
            const route = document.querySelector('g.route');
            route.classList.add('just-claimed', 'recent');
            document.documentElement.dataset.motion = 'on';
            const s = getComputedStyle(route);
            const found = [s.animationDuration, s.transitionDuration];
            const bar = document.querySelector('.score-track .bar');
            found.push(getComputedStyle(bar).transitionDuration);
            document.documentElement.dataset.motion = 'off';
            return found;
        }"""
    )
    assert all(value in ("0s", "") for value in moving), moving
    # The device's setting changes while the page is open: the player's choice returns.
    page.emulate_media(reduced_motion="no-preference")
    page.wait_for_function(f"() => {html} === 'on'", timeout=TIMEOUT_MS)
    assert page.is_checked("#pref-motion") and page.is_enabled("#pref-motion")
    page.emulate_media(reduced_motion="reduce")
    page.wait_for_function(f"() => {html} === 'off'", timeout=TIMEOUT_MS)


def press_until(page, selector: str, key: str = "Tab", limit: int = 80) -> None:
    """Tab forward until ``selector`` has the focus."""
    for _ in range(limit):
        if page.evaluate(
            "(s) => document.activeElement && document.activeElement.matches(s)", selector
        ):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{selector} never took the focus")


def focus_ring(page) -> str:
    return page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")


def test_a_whole_game_start_and_turns_by_keyboard(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", viewport=DESKTOP)
    sent = record_actions(page)
    page.wait_for_selector("#prompt[data-kind=choose_initial_tickets]", timeout=TIMEOUT_MS)
    # The first tickets: one unticked with Space, kept with Enter.
    press_until(page, "#prompt input[type=checkbox]")
    assert focus_ring(page) != "none"
    page.keyboard.press("Space")
    press_until(page, "#keep-tickets")
    page.keyboard.press("Enter")
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    assert sent[-1]["action"]["type"] == "keep_tickets"
    assert len(sent[-1]["action"]["tickets"]) >= 2
    # A turn: a market card with Enter, then the deck with Space; the focus stays on the
    # market card drawn again, so the deck is a Tab or two away.
    # (not a locomotive: taken face up, it would end the turn)
    press_until(page, "#market button.card-face:not([disabled]):not([data-card=locomotive])")
    assert focus_ring(page) != "none"
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label.startswith("Take the face-up"), label
    page.keyboard.press("Enter")
    page.wait_for_selector("#prompt[data-kind=second_card]", timeout=TIMEOUT_MS)
    assert page.evaluate("() => document.activeElement !== document.body")
    press_until(page, "#draw-blind")
    page.keyboard.press("Space")
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    assert [a["action"]["type"] for a in sent[-2:]] == ["draw_face_up", "draw_blind"]
    # The map names its routes and cities for screen readers, in the player's language.
    route = page.get_attribute("g.route >> nth=0", "aria-label") or ""
    city = page.get_attribute("g.city >> nth=0", "aria-label") or ""
    assert "\u2013" in route and city, (route, city)  # the en dash between two cities
    assert page.get_attribute("svg.board", "role") == "group"
    # A claim from the list, by keyboard, when one can be made.
    claims = ready_to_claim(ada, game_id)
    page.reload()
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    # The list's button waits for the moves one can make now, read after the prompt shows.
    page.wait_for_selector("#claimable-routes:not([disabled])", timeout=TIMEOUT_MS)
    press_until(page, "#claimable-routes")
    page.keyboard.press("Enter")
    page.wait_for_selector("#prompt li.claim-group", timeout=TIMEOUT_MS)
    assert page.evaluate("() => document.activeElement.id") == "claim-sheet-title"
    press_until(page, "#prompt button.pay-option")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/actions")):
        page.keyboard.press("Enter")
    claim = sent[-1]["action"]
    assert claim in claims
    # Claimed, or a tunnel asking for its extra cards.
    page.wait_for_selector(
        f'g.route[data-route="{claim["route"]}"][data-owner="0"],'
        " #prompt[data-kind=tunnel_payment]",
        timeout=TIMEOUT_MS,
    )


@pytest.mark.parametrize("motion", ["on", "off", "reduced"])
def test_the_others_turn_is_replayed_when_mine_comes(browser, web_server, motion):
    ada, bob = make_user("ada"), make_user("bob")
    game_id = two_player_game(ada, bob, first_seat=0)
    keep_all_offered(ada, game_id)
    keep_all_offered(bob, game_id)
    options = {"viewport": PHONE, "is_mobile": True, "has_touch": True}
    if motion == "reduced":
        options["reduced_motion"] = "reduce"
    context = browser.new_context(**options)
    if motion == "off":
        context.add_init_script(
            "localStorage.setItem('ttr.prefs', JSON.stringify({motion: false}))"
        )
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", context=context)
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    assert page.locator("#recap").count() == 0  # nothing to replay on opening the page
    page.click("#draw-blind")
    page.wait_for_selector("#prompt[data-kind=second_card]", timeout=TIMEOUT_MS)
    page.click("#draw-blind")
    page.wait_for_selector("#prompt:not([data-kind])", timeout=TIMEOUT_MS)
    # bob's turn, played through the API: two cards from the deck.
    act(bob, game_id, {"type": "draw_blind"})
    act(bob, game_id, {"type": "draw_blind"})
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    if motion != "on":
        page.wait_for_timeout(500)
        assert page.locator("#recap").count() == 0
        return
    page.wait_for_selector("#recap", timeout=TIMEOUT_MS)
    assert "bob" in page.inner_text("#recap .recap-text")
    assert page.locator("#recap-skip").bounding_box()["height"] >= 44
    page.click("#recap-skip")
    assert page.locator("#recap").count() == 0
    # The turn goes on as before: the deck still answers.
    assert page.is_enabled("#draw-blind")
