"""A whole game on a phone, by tapping only: the USA board, against one AI seat.

At 390x844 with touch, every decision is a tap on a control (never on the map, which is
never zoomed): the first tickets (as few kept as the rules allow), the "Routes I can claim"
sheet and a payment, the deck or the market. The score sheet at the end agrees with the
API's result.
"""

from __future__ import annotations

import re

import pytest

from games.models import Game

from .pages import (
    PHONE,
    TIMEOUT_MS,
    api_as,
    game_against_ai,
    make_user,
    open_as,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fast_passwords")]

TOUCH = {"viewport": PHONE, "is_mobile": True, "has_touch": True}
# Whether a tap at the middle of the element lands on it (its corners inset by 4 px too).
UNCOVERED = """(selector) => {
    const el = document.querySelector(selector);
    const r = el.getBoundingClientRect();
    const points = [[(r.left + r.right) / 2, (r.top + r.bottom) / 2],
        [r.left + 4, r.top + 4], [r.right - 4, r.top + 4],
        [r.left + 4, r.bottom - 4], [r.right - 4, r.bottom - 4]];
    const hit = ([x, y]) => el.contains(document.elementFromPoint(x, y));
    return r.bottom <= innerHeight && points.every(hit);
}"""


def keep_fewest_tickets(page) -> int:
    """Untick every offered ticket past the fewest the prompt asks to keep, then keep."""
    asked = re.search(r"\d+", page.locator("#prompt p").first.inner_text())
    assert asked, "the ticket prompt says how many to keep"
    fewest = int(asked.group())
    offers = page.locator("#prompt label.ticket-offer")
    for i in range(fewest, offers.count()):
        offers.nth(i).tap()
        assert not offers.nth(i).locator("input").is_checked()
    page.locator("#keep-tickets").tap()
    return fewest


def claim_from_the_list(page) -> bool:
    """Open "Routes I can claim" and tap the first payment of its first (longest) route."""
    button = page.locator("#claimable-routes")
    if not button.count() or not button.is_enabled():
        return False
    button.tap()
    page.wait_for_selector("#prompt.sheet #claim-sheet-title", timeout=TIMEOUT_MS)
    page.locator("#prompt .claim-group button.pay-option").first.tap()
    return True


def take_a_card(page) -> str:
    deck = page.locator("#draw-blind")
    if deck.is_enabled():
        deck.tap()
        return "deck"
    face_up = page.locator("#market button.card-face:not([disabled])")
    if face_up.count():
        face_up.first.tap()
        return "market"
    page.locator("#draw-tickets").tap()  # nothing left to draw: tickets are the only move
    return "tickets"


def play_one(page, kind: str) -> str:
    if kind in ("choose_initial_tickets", "keep_tickets"):
        keep_fewest_tickets(page)
        return kind
    if kind == "tunnel_payment":
        pay = page.locator("#prompt button.pay-tunnel")
        (pay.first if pay.count() else page.locator("#decline-tunnel")).tap()
        return kind
    if kind == "turn_action" and claim_from_the_list(page):
        return "claim"
    return take_a_card(page)


def test_a_whole_usa_game_on_a_phone_by_tapping(browser, web_server, artifacts):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1, board="usa")
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", **TOUCH)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.wait_for_selector("#prompt[data-kind=choose_initial_tickets]", timeout=TIMEOUT_MS)
    full_view = page.get_attribute("svg.board", "viewBox")

    played: dict[str, int] = {}
    last_version = None
    for _ in range(400):
        fresh = f'#prompt[data-version]:not([data-version="{last_version}"])'
        page.wait_for_selector(f"#result:not([hidden]) td.total, {fresh}", timeout=TIMEOUT_MS)
        if page.locator("#result:not([hidden]) td.total").count():
            break
        prompt = page.locator("#prompt")
        kind = prompt.get_attribute("data-kind") or ""
        last_version = prompt.get_attribute("data-version")
        done = play_one(page, kind)
        played[done] = played.get(done, 0) + 1
        if played.get("claim") == 3 and done == "claim":
            page.screenshot(path=str(artifacts / "phone-game-usa-playing.png"))
    else:
        pytest.fail(f"the game did not end; decisions played: {played}")

    assert Game.objects.get(pk=game_id).status == "finished"
    assert played["choose_initial_tickets"] == 1
    assert played["claim"] >= 5, played
    # The map was never zoomed: the whole board stayed in view.
    assert page.get_attribute("#board button.zoom", "aria-pressed") == "false"
    assert page.get_attribute("svg.board", "viewBox") == full_view
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # The score sheet: one row a seat, each with the API's totals; mine picked.
    result = api_as(ada).get(f"/api/v1/games/{game_id}/result")
    assert result.status_code == 200, result.content
    sheet = result.json()
    assert page.locator("#result tbody tr[data-seat]").count() == len(sheet["players"]) == 2
    mine = next(p for p in sheet["players"] if p["seat"] == 0)
    row = page.locator('#result tbody tr[data-seat="0"]')
    cells = [c.strip() for c in row.locator("td.num").all_inner_texts()]
    bonus = mine["longest_path_bonus"] + mine["globetrotter_bonus"]
    # place, routes, tickets, bonus, total (the USA has no stations column)
    assert cells == [
        str(mine["place"]),
        str(mine["route_points"]),
        str(mine["ticket_points"]),
        str(bonus),
        str(mine["total"]),
    ]
    assert "picked" in (row.get_attribute("class") or "")
    for p in sheet["players"]:
        total = page.locator(f'#result tbody tr[data-seat="{p["seat"]}"] td.total')
        assert total.inner_text().strip() == str(p["total"])
    assert page.locator("#winner").inner_text().strip()
    # A finished game's page ends with the board: scrolled to its end, the floating Chat
    # button leaves the map's Zoom button uncovered (it once sat over it, out of reach).
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate(UNCOVERED, "#board button.zoom"), "the Chat button covers Zoom"
    page.screenshot(path=str(artifacts / "phone-game-usa-result-end.png"))
    page.screenshot(path=str(artifacts / "phone-game-usa-result.png"), full_page=True)
    assert errors == []
