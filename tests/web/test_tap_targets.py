"""Every tap target at least 44 by 44 CSS px on a phone (Apple's guideline), on every page.

At 390x844 with touch, each visible, enabled control is measured by its bounding box
(padding and border included, which is its hit area): buttons, links, inputs, selects, a
label wrapping a checkbox (the label is measured, since a tap anywhere on it ticks the
box), and whatever else takes a tap (a ticket row, a score-sheet row). The map's routes
and cities are exempt: on a phone they are picked after zooming the map, and a tap on a
city then a choice of its routes is the way to make them large (docs/web.md).
"""

from __future__ import annotations

import uuid

import pytest

from .pages import (
    PHONE,
    TIMEOUT_MS,
    api_as,
    finish_with_ai,
    game_against_ai,
    keep_all_offered,
    make_user,
    new_game,
    open_as,
    wait_for_prompt,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fast_passwords")]

MIN = 44
TOUCH = {"viewport": PHONE, "is_mobile": True, "has_touch": True}

TARGETS = """
button, a[href], input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select,
textarea, input[type=checkbox]:not(label input), input[type=radio]:not(label input),
label:has(input[type=checkbox]), label:has(input[type=radio]),
[tabindex]:not([tabindex="-1"]), tr[data-seat][title]
"""


def small_targets(page) -> list[str]:
    """The tap targets on the page smaller than MIN by MIN, each with its size."""
    return page.evaluate(
        """([selector, min]) => {
            const visible = (n) => {
                if (!n.getClientRects().length) return false;
                const s = getComputedStyle(n);
                return s.visibility !== "hidden" && s.display !== "none";
            };
            const name = (n) => {
                const id = n.id ? "#" + n.id : "";
                const cls = typeof n.className === "string" && n.className
                    ? "." + n.className.trim().split(/\\s+/).join(".") : "";
                const text = (n.getAttribute("aria-label") || n.textContent || n.value || "")
                    .trim().replace(/\\s+/g, " ").slice(0, 30);
                return `${n.tagName.toLowerCase()}${id}${cls} "${text}"`;
            };
            return [...document.querySelectorAll(selector)]
                .filter((n) => !n.closest("svg"))  // the map's routes and cities: exempt
                .filter((n) => !n.matches(":disabled") && visible(n))
                .map((n) => [n, n.getBoundingClientRect()])
                .filter(([, r]) => r.width < min - 0.01 || r.height < min - 0.01)
                .map(([n, r]) => `${name(n)} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
        }""",
        [TARGETS, MIN],
    )


def assert_all_large(page) -> None:
    small = small_targets(page)
    assert not small, "smaller than 44x44:\n" + "\n".join(small)


def test_the_login_page(browser, web_server, artifacts):
    page = browser.new_context(**TOUCH).new_page()
    page.goto(f"{web_server.url}/")
    page.wait_for_selector("#login", timeout=TIMEOUT_MS)
    assert_all_large(page)
    page.screenshot(path=str(artifacts / "phone-taps-login.png"), full_page=True)


def test_the_lobby_with_games_invitations_and_quick_match(browser, web_server, artifacts):
    ada, bert, cleo = make_user("ada"), make_user("bert"), make_user("cleo")
    game_against_ai(ada, ais=1)
    new_game(bert, [{"type": "open"}])
    new_game(cleo, [{"type": "invite", "username": "ada"}])
    page = open_as(browser, web_server.url, ada, "#/", **TOUCH)
    page.wait_for_selector("#create-game", timeout=TIMEOUT_MS)
    page.wait_for_selector(".quick-match button", timeout=TIMEOUT_MS)
    page.wait_for_selector("li.game", timeout=TIMEOUT_MS)
    assert_all_large(page)
    page.screenshot(path=str(artifacts / "phone-taps-lobby.png"), full_page=True)


def test_a_game_in_progress(browser, web_server, artifacts):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=3)
    keep_all_offered(ada, game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", **TOUCH)
    wait_for_prompt(page, "turn_action")
    page.wait_for_selector("#market button.card-face:not([disabled])", timeout=TIMEOUT_MS)
    page.wait_for_selector("li.ticket", timeout=TIMEOUT_MS)
    assert_all_large(page)
    # The ticket prompt's choices too.
    page.click("#draw-tickets")
    wait_for_prompt(page, "keep_tickets")
    assert_all_large(page)
    page.screenshot(path=str(artifacts / "phone-taps-game.png"), full_page=True)


def test_a_finished_games_score_sheet(browser, web_server, artifacts):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=3)
    finish_with_ai(game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", **TOUCH)
    page.wait_for_selector("#result td.total", timeout=TIMEOUT_MS)
    assert_all_large(page)
    page.screenshot(path=str(artifacts / "phone-taps-result.png"), full_page=True)


def test_the_account_page(browser, web_server, artifacts):
    ada = make_user("ada")
    page = open_as(browser, web_server.url, ada, "#/account", **TOUCH)
    page.wait_for_selector(".account[data-ready]", timeout=TIMEOUT_MS)
    assert_all_large(page)
    page.screenshot(path=str(artifacts / "phone-taps-account.png"), full_page=True)


def write(user, path: str, body: dict | None = None):
    answer = api_as(user).post(
        path, body or {}, format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex
    )
    assert answer.status_code in (200, 201, 204), answer.content
    return answer


def test_the_friends_page(browser, web_server, artifacts):
    ada, bert, cleo, dora, emil = (make_user(n) for n in ("ada", "bert", "cleo", "dora", "emil"))
    for sender, to in ((ada, bert), (cleo, ada), (ada, dora)):
        sent = write(sender, "/api/v1/friend-requests", {"username": to.username})
        if to is bert:
            write(bert, f"/api/v1/friend-requests/{sent.json()['id']}/accept")
    write(ada, "/api/v1/blocks", {"username": emil.username})
    page = open_as(browser, web_server.url, ada, "#/friends", **TOUCH)
    page.wait_for_selector(".friends-page[data-ready]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#friend-list li[data-username=bert]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#incoming li[data-username=cleo]", timeout=TIMEOUT_MS)
    assert_all_large(page)
    page.screenshot(path=str(artifacts / "phone-taps-friends.png"), full_page=True)
