"""Shared steps of the web client's end-to-end tests: users, games set up through the API,
pages opened as a logged-in player, and the clicks of a hurried player."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.services import token_issue
from games.models import Game, Seat
from games.worker.ai import ai_turns_play

PASSWORD = "a-long-Passphrase-42"
TIMEOUT_MS = 20_000
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


def make_user(name: str) -> Any:
    return get_user_model().objects.create_user(name, password=PASSWORD)


def api_as(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def new_game(host: Any, seats: list[dict[str, Any]], board: str = "europe", **extra: Any) -> int:
    """A game created by ``host`` through the API (seat 0 is the host's)."""
    body = {"board": board, "seats": [{"type": "creator"}, *seats], **extra}
    created = api_as(host).post("/api/v1/games", body, format="json")
    assert created.status_code == 201, created.content
    return created.json()["id"]


def game_against_ai(host: Any, ais: int = 3, board: str = "europe", **extra: Any) -> int:
    seats = [{"type": "ai", "level": "easy"} for _ in range(ais)]
    return new_game(host, seats, board=board, first_seat=0, **extra)


def two_player_game(host: Any, guest: Any, **extra: Any) -> int:
    """host and guest, both people: both are choosing their first tickets."""
    game_id = new_game(host, [{"type": "invite", "username": guest.username}], **extra)
    accepted = api_as(guest).post(f"/api/v1/games/{game_id}/invitation/accept")
    assert accepted.status_code == 200, accepted.content
    return game_id


def view_of(user: Any, game_id: int) -> dict[str, Any]:
    return api_as(user).get(f"/api/v1/games/{game_id}").json()


def act(user: Any, game_id: int, action: dict[str, Any]) -> dict[str, Any]:
    """Play ``action`` for ``user`` through the API, against the version now."""
    version = view_of(user, game_id)["version"]
    answer = api_as(user).post(
        f"/api/v1/games/{game_id}/actions",
        {"version": version, "action": action},
        format="json",
        HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
    )
    assert answer.status_code == 200, answer.content
    return answer.json()


def keep_all_offered(user: Any, game_id: int) -> dict[str, Any]:
    offered = view_of(user, game_id)["state"]["you"]["offered_tickets"]
    return act(user, game_id, {"type": "keep_tickets", "tickets": [t["id"] for t in offered]})


def finish_with_ai(game_id: int, seat: int = 0) -> Game:
    """Let the AI play ``seat`` too, to the end of the game."""
    Seat.objects.filter(game_id=game_id, index=seat).update(ai_controlled=True)
    ai_turns_play(game_id, max_moves=5000)
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    return game


def open_as(browser: Any, base_url: str, user: Any, hash_path: str = "#/", **options: Any):
    """A new page (in a context of its own unless ``context`` is given) logged in as
    ``user`` with a fresh token, showing ``hash_path``."""
    context = options.pop("context", None)
    if context is None:
        context = browser.new_context(viewport=options.pop("viewport", DESKTOP), **options)
    page = context.new_page()
    _, key = token_issue(user, name="e2e")
    page.goto(f"{base_url}/")
    page.evaluate(
        "([k, u]) => { localStorage.setItem('ttr.token', k);"
        " localStorage.setItem('ttr.user', u); }",
        [key, user.username],
    )
    page.goto(f"{base_url}/{hash_path}")
    page.reload()
    return page


def wait_for_prompt(page, kind: str) -> None:
    page.wait_for_selector(f"#prompt[data-kind={kind}]", timeout=TIMEOUT_MS)


def record_actions(page) -> list[dict[str, Any]]:
    """The bodies of the moves the page sends, as they are sent."""
    sent: list[dict[str, Any]] = []

    def on_request(request) -> None:
        if request.method == "POST" and re.search(r"/games/\d+/actions$", request.url):
            sent.append(json.loads(request.post_data or "{}"))

    page.on("request", on_request)
    return sent


# ---------------------------------------------------------------- a hurried player's clicks
def sign_up(page, base_url: str, username: str) -> None:
    _enter(page, base_url, username, "#signup")


def log_in(page, base_url: str, username: str) -> None:
    _enter(page, base_url, username, "#login")


def _enter(page, base_url: str, username: str, button: str) -> None:
    """Fill in the account form, press ``button`` and wait for the lobby."""
    page.goto(f"{base_url}/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click(button)
    page.wait_for_selector("#create-game", timeout=TIMEOUT_MS)


def create_game_against_ai(page) -> int:
    page.select_option("select[name=players]", "4")
    for seat in (1, 2, 3):
        page.select_option(f"select[name=seat-{seat}-type]", "ai")
        page.select_option(f"select[name=seat-{seat}-level]", "easy")
    page.select_option("select[name=turn_time_limit]", "3600")
    page.click("#create-game")
    page.wait_for_url(re.compile(r".*#/game/\d+$"), timeout=TIMEOUT_MS)
    page.wait_for_selector("svg.board g.route", timeout=TIMEOUT_MS)
    return int(page.url.rsplit("/", 1)[1])


def longest_selectable_routes(page) -> list[str]:
    return page.eval_on_selector_all(
        "g.route.selectable",
        """nodes => nodes
            .map(n => [n.dataset.route, Number(n.dataset.length)])
            .sort((a, b) => b[1] - a[1])
            .map(x => x[0])""",
    )


def take_a_card(page) -> None:
    if page.is_enabled("#draw-blind"):
        page.click("#draw-blind")
    else:
        page.click("#market button.card-face:not([disabled])")


def claim_a_route(page) -> bool:
    """Click the longest claimable route, then the first payment the API lists for it."""
    for route in longest_selectable_routes(page)[:5]:
        try:
            page.click(f'g.route[data-route="{route}"] line.hit', timeout=2_000)
        except Exception:  # another route's line covers this one's middle: try the next
            continue
        page.click("#prompt button.pay-option", timeout=TIMEOUT_MS)
        return True
    return False


def build_a_station(page) -> bool:
    page.click("#build-station")
    city = page.locator("g.city.selectable").first
    if not city.count():
        page.click("#prompt button.link")  # cancel
        return False
    city.locator("circle").click()
    page.click("#prompt button.pay-option", timeout=TIMEOUT_MS)
    return True


def play_one_decision(page, kind: str, played: dict[str, int]) -> None:
    """One decision, chosen the way a hurried player would; records what it did."""
    done = kind
    if kind in ("choose_initial_tickets", "keep_tickets"):
        page.click("#keep-tickets")
    elif kind == "tunnel_payment":
        if page.locator("#prompt button.pay-tunnel").count():
            page.click("#prompt button.pay-tunnel")
        else:
            page.click("#decline-tunnel")
    elif kind == "turn_action" and played.get("turn_action", 0) == 2:
        page.click("#draw-tickets")
        done = "draw_tickets"
    elif (
        kind == "turn_action"
        and not played.get("station")
        and played.get("turn_action", 0) > 8
        and page.locator("#build-station").count()
        and build_a_station(page)
    ):
        done = "station"
    elif kind == "second_card" or not claim_a_route(page):
        take_a_card(page)
    elif kind == "turn_action":
        done = "claim"
    played[kind] = played.get(kind, 0) + 1
    if done != kind:
        played[done] = played.get(done, 0) + 1


# ------------------------------------------------------------------- settings and friends
def unlabelled_controls(page) -> list[str]:
    """The inputs, selects and buttons on the page that a screen reader could not name."""
    return page.eval_on_selector_all(
        "#app input, #app select, #app button",
        """nodes => nodes
            .filter(n => n.offsetParent !== null)
            .filter(n => !(n.labels && n.labels.length) && !n.getAttribute('aria-label')
                && !(n.tagName === 'BUTTON' && n.textContent.trim()))
            .map(n => n.outerHTML)""",
    )


def fits_the_width(page) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
