"""One test per fault found when whole games were played as a new player would, on the
desktop and on a phone: each was seen failing before its fix."""

from __future__ import annotations

import base64
import json
import re

import pytest

from .pages import (
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    act,
    api_as,
    finish_with_ai,
    game_against_ai,
    keep_all_offered,
    make_user,
    new_game,
    open_as,
    view_of,
    wait_for_prompt,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fast_passwords")]


def hex_rgb(value: str) -> tuple[int, int, int]:
    value = value.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def pixels(page, points: list[tuple[float, float]]) -> list[tuple[int, int, int]]:
    """The colours on screen at ``points`` (CSS pixels of the viewport), read from a
    screenshot drawn on a canvas of the page itself."""
    shot = base64.b64encode(page.screenshot(animations="disabled")).decode()
    return [
        tuple(rgb)
        for rgb in page.evaluate(
            """async ([data, points]) => {
                const img = new Image();
                img.src = 'data:image/png;base64,' + data;
                await img.decode();
                const canvas = document.createElement('canvas');
                canvas.width = img.width; canvas.height = img.height;
                const ctx = canvas.getContext('2d');
                ctx.drawImage(img, 0, 0);
                const scale = img.width / innerWidth;
                return points.map(([x, y]) =>
                    [...ctx.getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data]
                        .slice(0, 3));
            }""",
            [shot, points],
        )
    ]


def near(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 40) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= tolerance


def car_centres(page, selector: str) -> list[dict]:
    """Each claimed car's centre on screen, with its owner's fill."""
    return page.eval_on_selector_all(
        selector,
        """nodes => {
          // City names are drawn over the routes, and take no clicks.
          const labels = [...document.querySelectorAll('g.city text')]
            .map(t => t.getBoundingClientRect());
          const labelled = (x, y) => labels.some(l =>
            x >= l.left && x <= l.right && y >= l.top && y <= l.bottom);
          return nodes.flatMap(g => [...g.querySelectorAll('rect.car')].map(r => {
            const b = r.getBoundingClientRect();
            const x = b.x + b.width / 2, y = b.y + b.height / 2;
            const top = document.elementFromPoint(x, y);
            return {x, y, w: b.width, h: b.height, fill: r.getAttribute('fill'),
                    route: g.dataset.route, shown: Boolean(top && top.closest('g.route') === g)};
        }).filter(c => c.shown && !labelled(c.x, c.y)));
        }""",
    )


# ----------------------------------------------------------------- 1. overlays over the cars
def test_the_breakdown_on_the_map_keeps_the_owners_colours(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=2)
    finish_with_ai(game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    page.wait_for_selector("#result table td.total", timeout=TIMEOUT_MS)
    page.wait_for_selector("svg.board line.overlay", state="attached", timeout=TIMEOUT_MS)
    covered = page.eval_on_selector_all(
        "svg.board line.overlay[data-overlay]", "nodes => nodes.map(n => n.dataset.overlay)"
    )
    assert covered
    cars = [
        c
        for c in car_centres(page, "g.route.claimed")
        if c["route"] in covered and min(c["w"], c["h"]) > 4
    ]
    assert cars
    seen = pixels(page, [(c["x"], c["y"] + 0) for c in cars[:30]])
    # The middle of a car is in its owner's colour (its windows are to either side).
    wrong = [
        (c["route"], c["fill"], rgb)
        for c, rgb in zip(cars, seen, strict=False)
        if not near(rgb, hex_rgb(c["fill"]))
    ]
    assert not wrong, wrong


# ------------------------------------------------------------ 2. the recent glow over the cars
def test_an_opponents_last_claim_glows_without_changing_its_colour(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    # ada draws until the AI has claimed something.
    for _ in range(40):
        state = view_of(ada, game_id)["state"]
        if state["seats"][1]["routes"]:
            break
        act(ada, game_id, {"type": "draw_blind"})
        act(ada, game_id, {"type": "draw_blind"})
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "turn_action")
    page.evaluate("document.documentElement.dataset.motion = 'off'")
    page.wait_for_selector("g.route.recent.claimed", state="attached", timeout=TIMEOUT_MS)
    cars = [c for c in car_centres(page, "g.route.recent.claimed") if min(c["w"], c["h"]) > 4]
    assert cars
    seen = pixels(page, [(c["x"], c["y"]) for c in cars])
    wrong = [
        (c["route"], c["fill"], rgb)
        for c, rgb in zip(cars, seen, strict=True)
        if not near(rgb, hex_rgb(c["fill"]))
    ]
    assert not wrong, wrong


# ------------------------------------------------------ 3. "Last:" behind the move log
def test_the_players_last_moves_keep_up_with_the_move_log(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "turn_action")
    for _ in range(4):
        page.click("#draw-blind")
        wait_for_prompt(page, "second_card")
        page.click("#draw-blind")
        wait_for_prompt(page, "turn_action")
        # The log's last line for the AI and its "Last:" line say the same, within 3 s.
        page.wait_for_function(
            """() => {
                const log = [...document.querySelectorAll("#log li[data-seat='1']")];
                const last = document.querySelector("#players tr[data-seat='1'] .last-move");
                if (!log.length || !last) return false;
                const line = log[log.length - 1].textContent.replace(/^AI 2 \\(easy\\) /, '');
                return last.textContent === 'Last: ' + line.trim();
            }""",
            timeout=3_000,
        )


# ------------------------------------------------- 4. the deck moves between two cards
def test_the_deck_stays_under_the_pointer_between_two_cards(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=3)
    keep_all_offered(ada, game_id)
    act(ada, game_id, {"type": "draw_blind"})
    act(ada, game_id, {"type": "draw_blind"})  # the AIs move: "since your last move" fills
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "turn_action")
    page.wait_for_selector("#since li", timeout=TIMEOUT_MS)
    before = page.locator("#draw-blind").bounding_box()
    page.click("#draw-blind")
    wait_for_prompt(page, "second_card")
    after = page.locator("#draw-blind").bounding_box()
    assert abs(after["y"] - before["y"]) < 1 and abs(after["x"] - before["x"]) < 1, (before, after)


# ----------------------------------------------------- 5. a raw route id in the breakdown
def test_a_stations_borrowed_route_is_named_by_its_cities(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    finish_with_ai(game_id)
    context = browser.new_context(viewport=DESKTOP)

    def borrowed(route) -> None:
        response = route.fetch()
        sheet = response.json()
        for player in sheet["players"]:
            player["stations"] = [{"city": "Brindisi", "borrowed_route": "athina-brindisi"}]
        route.fulfill(response=response, body=json.dumps(sheet))

    context.route(re.compile(r".*/games/\d+/result$"), borrowed)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", context=context)
    page.wait_for_selector("#result .breakdown", timeout=TIMEOUT_MS)
    text = page.inner_text("#result .breakdown")
    assert "athina-brindisi" not in text, text
    assert re.search(r"borrows Athina\s*[\u2013-]\s*Brindisi", text), text
    context.unroute_all(behavior="ignoreErrors")  # no handler outlives the test


# --------------------------------------------------- 6. Switzerland's border labels collide
def test_switzerlands_border_labels_do_not_overlap(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1, board="switzerland")
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    page.wait_for_selector("g.city.border-point", state="attached", timeout=TIMEOUT_MS)
    labels = page.eval_on_selector_all(
        "g.city",
        """nodes => nodes.filter(n => n.querySelector('text'))
            .map(n => { const b = n.querySelector('text').getBBox();
              return {name: n.dataset.city, border: n.classList.contains('border-point'),
                      x: b.x, y: b.y, w: b.width, h: b.height}; })""",
    )
    clashes = [
        (a["name"], b["name"])
        for i, a in enumerate(labels)
        for b in labels[i + 1 :]
        if (a["border"] or b["border"])
        and a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and a["y"] < b["y"] + b["h"]
        and b["y"] < a["y"] + a["h"]
    ]
    assert not clashes, clashes
    # Every border point still reads as its country.
    names = page.eval_on_selector_all(
        "g.city.border-point",
        "ns => ns.map(n => (n.querySelector('title') || n.querySelector('text')).textContent)",
    )
    assert all(n in ("Deutschland", "France", "Italia", "Österreich") for n in names), names


# --------------------------------------------------------- 7. the Zoom button over a city
@pytest.mark.parametrize("board", ["europe", "usa"])
def test_the_zoom_button_covers_no_city_on_a_phone(browser, web_server, board):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1, board=board)
    page = open_as(
        browser, web_server.url, ada, f"#/game/{game_id}", viewport=PHONE, is_mobile=True
    )
    page.wait_for_selector("svg.board g.city", timeout=TIMEOUT_MS)
    zoom = page.locator("#board .zoom").bounding_box()
    cities = page.eval_on_selector_all(
        "g.city",
        """nodes => nodes.map(n => { const b = n.getBoundingClientRect();
            return {name: n.dataset.city, x: b.x, y: b.y, w: b.width, h: b.height}; })""",
    )
    under = [
        c["name"]
        for c in cities
        if c["x"] < zoom["x"] + zoom["width"]
        and zoom["x"] < c["x"] + c["w"]
        and c["y"] < zoom["y"] + zoom["height"]
        and zoom["y"] < c["y"] + c["h"]
    ]
    assert not under, under


# ------------------------------------------------- 8. "since your last move" clipped on a phone
def test_every_opponents_move_since_mine_shows_on_a_phone(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=3)
    keep_all_offered(ada, game_id)
    act(ada, game_id, {"type": "draw_blind"})
    act(ada, game_id, {"type": "draw_blind"})
    page = open_as(
        browser, web_server.url, ada, f"#/game/{game_id}", viewport=PHONE, is_mobile=True
    )
    wait_for_prompt(page, "turn_action")
    page.wait_for_selector("#since li", timeout=TIMEOUT_MS)
    since = page.eval_on_selector(
        "#since ol",
        """ol => ({scroll: ol.scrollHeight, client: ol.clientHeight,
                   seats: [...ol.querySelectorAll('li')].map(li => li.dataset.seat)})""",
    )
    assert {"1", "2", "3"} <= set(since["seats"]), since
    assert since["scroll"] <= since["client"] + 1, since


# ----------------------------------------------------- 9. names broken inside their words
def breaks(page, selector: str) -> list[str]:
    """Where the names in ``selector`` wrap: the two characters either side of each line
    break, as "ab|cd"."""
    return page.eval_on_selector_all(
        selector,
        """cells => cells.flatMap(cell => {
            const chars = [];
            const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let n = walk.nextNode(); n; n = walk.nextNode()) {
                for (let i = 0; i < n.textContent.length; i++) {
                    const r = document.createRange();
                    r.setStart(n, i); r.setEnd(n, i + 1);
                    const rect = r.getClientRects()[0];
                    if (rect) chars.push({c: n.textContent[i], top: rect.top});
                }
            }
            const out = [];
            for (let i = 1; i < chars.length; i++) {
                if (chars[i].top > chars[i - 1].top + 4) {
                    const at = chars.map(x => x.c).join('');
                    out.push(at.slice(Math.max(0, i - 2), i) + '|' + at.slice(i, i + 2));
                }
            }
            return out;
        })""",
    )


def test_score_sheet_names_wrap_between_words_on_a_phone(browser, web_server):
    ada = make_user("margarethe.vanderlinden")
    seats = [{"type": "ai", "level": "medium"} for _ in range(3)]
    game_id = new_game(ada, seats, first_seat=0)
    finish_with_ai(game_id)
    page = open_as(
        browser, web_server.url, ada, f"#/game/{game_id}", viewport=PHONE, is_mobile=True
    )
    page.wait_for_selector("#result table td.total", timeout=TIMEOUT_MS)
    found = breaks(page, "#result td.name") + breaks(page, "#players td.name")
    inside = [b for b in found if re.match(r"^.*\w\|\w", b) and not re.match(r"^.*[._-]\|", b)]
    assert not inside, found


# ------------------------------------------------ 10. the players table after the game
def test_after_the_game_the_players_table_and_tickets_agree_with_the_sheet(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=2)
    finish_with_ai(game_id)
    sheet = api_as(ada).get(f"/api/v1/games/{game_id}/result").json()
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    page.wait_for_selector("#result table td.total", timeout=TIMEOUT_MS)
    for player in sheet["players"]:
        score = page.inner_text(f"#players tr[data-seat='{player['seat']}'] td.num >> nth=0")
        assert score.strip() == str(player["total"]), (player["seat"], score, player["total"])
    mine = next(p for p in sheet["players"] if p["seat"] == 0)
    for ticket in mine["tickets"]:
        mark = page.inner_text(f"#tickets li[data-ticket='{ticket['id']}'] .mark")
        assert mark == ("✓" if ticket["completed"] else "✗"), (ticket, mark)


# --------------------------------------------- 11. the replay's empty market and its jumps
def test_the_replay_hides_an_empty_market_and_a_jump_animates_nothing(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    finish_with_ai(game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}/replay")
    page.wait_for_selector("#replay-step", timeout=TIMEOUT_MS)
    page.evaluate("document.documentElement.dataset.motion = 'on'")
    headings = page.eval_on_selector_all(
        "#replay h3", "nodes => nodes.filter(n => n.offsetParent).map(n => n.textContent)"
    )
    cards = page.locator("#replay .chips .chip").count()
    assert cards or "Market" not in headings, (headings, cards)
    last = int(page.get_attribute("#replay-step", "max"))
    page.eval_on_selector(
        "#replay-step",
        "(s, n) => { s.value = n; s.dispatchEvent(new Event('input')); }",
        last,
    )
    assert page.locator("g.route.just-claimed").count() == 0
    page.click("#replay-first")
    page.click("#replay-next")
    assert page.locator("g.route.just-claimed").count() <= 1


# -------------------------------------------------------------- 12. refusals without a reason
def test_a_refused_route_says_why(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "turn_action")
    # A long route she cannot pay for (her hand holds four cards).
    route = page.eval_on_selector_all(
        "g.route:not(.selectable):not(.claimed)",
        "nodes => nodes.filter(n => Number(n.dataset.length) >= 6).map(n => n.dataset.route)[0]",
    )
    page.locator(f'g.route[data-route="{route}"]').dispatch_event("click")
    page.wait_for_selector("#error:not([hidden])", timeout=TIMEOUT_MS)
    message = page.inner_text("#error")
    assert re.search(r"you have|you hold|in your hand", message, re.I), message
    assert re.search(r"needs? \d", message), message


def rig_tunnel(game_id: int, turned: list[str]) -> None:
    """ada (seat 0) holds two blue cards and no locomotive, and the deck's top cards are
    ``turned``: München-Venezia (a tunnel of 2 blue) is hers to try."""
    from engine.colors import CARD_NAMES
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    state = game.state
    pool = list(state["hands"][0])
    for card in state["deck"]:
        pool[card] += 1
    hand = [0] * len(CARD_NAMES)
    hand[CARD_NAMES.index("blue")] = 2
    hand[CARD_NAMES.index("purple")] = 1
    hand[CARD_NAMES.index("orange")] = 1
    rest = [p - h for p, h in zip(pool, hand, strict=True)]
    top = [CARD_NAMES.index(c) for c in turned]
    for card in top:
        rest[card] -= 1
    assert min(rest) >= 0, rest
    deck = [card for card, n in enumerate(rest) for _ in range(n)]
    state["hands"][0] = hand
    state["deck"] = deck + list(reversed(top))  # the deck is drawn from its end
    game.state = state
    game.save(update_fields=["state"])


def test_a_tunnel_that_cannot_be_paid_says_what_is_missing(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    rig_tunnel(game_id, ["blue", "blue", "red"])
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "turn_action")
    page.locator('g.route[data-route="munchen-venezia"]').dispatch_event("click")
    page.click("#prompt button.pay-option", timeout=TIMEOUT_MS)
    wait_for_prompt(page, "tunnel_payment")
    assert page.locator("#prompt button.pay-tunnel").count() == 0
    text = page.inner_text("#prompt")
    assert re.search(r"2 more blue", text), text
    assert re.search(r"you have no blue and no locomotive", text, re.I), text


def test_a_free_tunnel_says_which_cards_were_turned(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    rig_tunnel(game_id, ["red", "green", "yellow"])
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "turn_action")
    page.locator('g.route[data-route="munchen-venezia"]').dispatch_event("click")
    page.click("#prompt button.pay-option", timeout=TIMEOUT_MS)
    page.wait_for_selector("#toast:not([hidden])", timeout=TIMEOUT_MS)
    page.wait_for_function(
        "() => /red, green, yellow/.test(document.querySelector('#toast').textContent)",
        timeout=5_000,
    )


# ---------------------------------------------------------------------- 13. awkward log lines
def test_a_reshuffle_reads_as_part_of_a_draw(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    context = browser.new_context(viewport=DESKTOP)
    context.route(re.compile(r".*/events\?.*"), lambda route: None)  # the page polls

    def reshuffled(route) -> None:
        response = route.fetch()
        body = response.json()
        for move in body["moves"]:
            if move.get("action") and move["action"]["type"] == "draw_blind":
                move["events"].insert(0, {"type": "deck_reshuffled", "deck_size": 40})
        route.fulfill(response=response, body=json.dumps(body))

    context.route(re.compile(r".*/games/\d+/moves\?.*"), reshuffled)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", context=context)
    wait_for_prompt(page, "turn_action")
    page.click("#draw-blind")
    wait_for_prompt(page, "second_card")
    page.click("#draw-blind")
    page.wait_for_selector("#log li[data-seat='1']", timeout=TIMEOUT_MS)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')].some(n => /shuffled/.test(n.textContent))",
        timeout=TIMEOUT_MS,
    )
    lines = page.eval_on_selector_all("#log li", "nodes => nodes.map(n => n.textContent)")
    awkward = [
        x for x in lines if re.search(r"and the discard pile|; drew|shuffled into the deck", x)
    ]
    context.unroute_all(behavior="ignoreErrors")  # no handler outlives the test
    assert not awkward, lines


# ------------------------------------------------------- 14. messages over the hand on a phone
def test_a_note_on_a_phone_covers_no_control(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    page = open_as(
        browser, web_server.url, ada, f"#/game/{game_id}", viewport=PHONE, is_mobile=True
    )
    wait_for_prompt(page, "turn_action")
    page.click("#draw-blind")
    page.wait_for_selector("#toast:not([hidden])", timeout=TIMEOUT_MS)
    # The player scrolls the panels, the hand coming to the foot of the screen.
    page.eval_on_selector("#hand", "n => n.scrollIntoView({block: 'end'})")
    note = page.locator("#toast").bounding_box()
    board = page.locator("#board").bounding_box()
    covered = []
    for selector in ("#hand", "#market", "#prompt", "#status"):
        box = page.locator(selector).bounding_box()
        if not box:
            continue
        # The part of a panel in view: the sticky map hides what has scrolled under it.
        top = max(box["y"], board["y"] + board["height"])
        bottom = box["y"] + box["height"]
        if (
            top < bottom
            and box["x"] < note["x"] + note["width"]
            and note["x"] < box["x"] + box["width"]
            and top < note["y"] + note["height"]
            and note["y"] < bottom
        ):
            covered.append(selector)
    assert not covered, (covered, note)


def test_a_lobby_games_badge_keeps_to_its_word(browser, web_server):
    # The badge of a game in its lobby has the class `lobby`, which the lobby's own grid
    # once styled too: the badge stretched across its row.
    ada = make_user("ada")
    new_game(ada, [{"type": "open"}])
    page = open_as(browser, web_server.url, ada, "#/")
    badge = page.wait_for_selector(
        "#my-games li.game[data-status=lobby] .badge", timeout=TIMEOUT_MS
    )
    box = badge.bounding_box()
    assert box is not None and box["width"] < 100, box
    assert page.evaluate("(b) => getComputedStyle(b).display", badge) != "grid"
