"""A ticket's path on the map: the path function of ticketpaths.js on the real boards, run in
the page, and the ticket list of a game where the player owns some routes, on the desktop
and on a phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from engine import GameState
from engine.invariants import violations
from games.commands import write
from games.domain.seats import state_of
from tests.engine.factory import give_route

from .pages import (
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    api_as,
    finish_with_ai,
    game_against_ai,
    keep_all_offered,
    make_user,
    open_as,
    view_of,
)
from .test_found_broken import car_centres, hex_rgb, near, pixels

pytestmark = pytest.mark.django_db(transaction=True)

# The path function on a board read from the API: `plan(board, owners, ticket, players)`
# gives {status, routes (ids), owned (ids), trains, claims}; `usable(...)` the usable ids.
PATHS = """async ([boardId, cases]) => {
  const paths = await import('/static/web/ticketpaths.js');
  const board = await (await fetch(`/api/v1/boards/${boardId}`)).json();
  const ticketOf = (id) => board.tickets.find((tk) => tk.id === id);
  return cases.map(([ticket, owners, players]) => {
    const plan = paths.ticketPath(board, ticketOf(ticket), { owners, seat: 0, players });
    return {
      status: plan.status,
      routes: plan.segments.map((s) => s.route),
      owned: plan.segments.filter((s) => s.owned).map((s) => s.route),
      legs: plan.segments.map((s) => [s.from, s.to]),
      trains: plan.trains,
      claims: plan.routes,
      ends: plan.segments.length ? [
        board.routes.find((r) => r.id === plan.segments[0].route).cities,
        board.routes.find((r) => r.id === plan.segments.at(-1).route).cities,
      ] : [],
      usable: [...paths.usableRoutes(board, owners, 0, players).keys()],
    };
  });
}"""


def run_paths(page: Any, board: str, cases: list[tuple[str, dict[str, int], int]]) -> list[dict]:
    return page.evaluate(PATHS, [board, cases])


def joined(routes: list[str], board_routes: dict[str, list[str]], a: str, b: str) -> bool:
    """Whether ``routes`` in their order walk from city a to city b."""
    at = a
    for r in routes:
        x, y = board_routes[r]
        if at not in (x, y):
            return False
        at = y if at == x else x
    return at == b


def test_the_path_function_on_the_real_boards(browser, web_server):
    page = browser.new_page()
    page.goto(f"{web_server.url}/")
    europe = page.evaluate(
        "async () => (await (await fetch('/api/v1/boards/europe')).json()).routes"
    )
    cities = {r["id"]: r["cities"] for r in europe}
    nobody, mine = {}, {"paris-zurich": 0}
    others = {"munchen-wien": 1}
    blocked = {"cadiz-lisboa": 1, "cadiz-madrid": 1}
    free, own, avoid, shut, twin4, twin_mine, cut = run_paths(
        page,
        "europe",
        [
            ("paris-wien", nobody, 2),
            ("paris-wien", mine, 2),
            ("paris-wien", others, 2),
            ("berlin-roma", {"berlin-frankfurt-1": 1}, 2),
            ("berlin-roma", {"berlin-frankfurt-1": 1}, 4),
            ("berlin-roma", {"berlin-frankfurt-1": 0}, 4),
            ("cadiz-stockholm", blocked, 3),
        ],
    )
    # Nothing owned: the cheapest in trains (two paths of 8 trains and 3 routes tie).
    assert free["status"] == "planned"
    assert (free["trains"], free["claims"], free["owned"]) == (8, 3, [])
    assert joined(free["routes"], cities, "Paris", "Wien")
    # An own route costs nothing: Paris-Zürich (3, mine), then 5 trains to Wien.
    assert own["routes"] == ["paris-zurich", "munchen-zurich", "munchen-wien"]
    assert own["legs"] == [["Paris", "Zurich"], ["Zurich", "Munchen"], ["Munchen", "Wien"]]
    assert (own["owned"], own["trains"], own["claims"]) == (["paris-zurich"], 5, 2)
    # Another player's route is avoided: 9 trains by Frankfurt and Berlin, 3 routes (fewer
    # than the 4 of the other 9-train path, by Zürich, Venezia and Zagreb).
    assert "munchen-wien" not in avoid["routes"] and "munchen-wien" not in avoid["usable"]
    assert (avoid["trains"], avoid["claims"]) == (9, 3)
    assert joined(avoid["routes"], cities, "Paris", "Wien")
    assert "berlin-wien" in avoid["routes"]
    # With 2 players the free track of a double route held by another is closed; with 4 it
    # is open; the player's own twin closes it at any count.
    assert "berlin-frankfurt-2" not in shut["usable"]
    assert "berlin-frankfurt-2" in twin4["usable"]
    assert "berlin-frankfurt-2" not in twin_mine["usable"]
    assert "berlin-frankfurt-1" in twin_mine["owned"]
    assert (twin_mine["trains"], twin_mine["claims"]) == (6, 3)
    assert joined(twin_mine["routes"], cities, "Berlin", "Roma")
    # Cádiz cut off: blocked.
    assert cut == {**cut, "status": "blocked", "routes": [], "trains": 0, "claims": 0}

    # Switzerland's country tickets: from a border point of the origin's country to one of
    # a destination country's, whichever is cheapest.
    swiss = page.evaluate(
        "async () => (await (await fetch('/api/v1/boards/switzerland')).json()).countries"
    )
    points = {c["name"]: set(c["border_points"]) for c in swiss}
    (country,) = run_paths(page, "switzerland", [("ch-k1", {}, 2)])
    assert country["status"] == "planned" and country["trains"] > 0
    first, last = country["ends"]
    assert set(first) & points["France"]
    assert set(last) & (points["Deutschland"] | points["Österreich"] | points["Italia"])


# ------------------------------------------------------------------ the game's ticket list
CONNECTED = ["frankfurt-paris-1", "frankfurt-munchen", "munchen-wien"]
PLANNED = [
    "berlin-essen",
    "essen-frankfurt",
    "frankfurt-munchen",
    "munchen-venezia",
    "roma-venezia",
]


def hand_tickets(state: GameState, seat: int, wanted: list[str]) -> None:
    """Give ``seat`` exactly the tickets ``wanted``, each taken from wherever it is (the
    deck, the removed ones, another hand) in exchange for one of the seat's own."""
    board = state.board
    mine = state.tickets[seat]
    indices = [board.ticket_by_id[w].index for w in wanted]
    spare = [t for t in mine if t not in indices]
    places = [state.ticket_deck, state.removed_tickets, *state.tickets, *state.offers]
    for index in indices:
        if index in mine:
            continue
        holder = next(p for p in places if p is not mine and index in p)
        if spare:
            given = spare.pop()
            holder[holder.index(index)] = given
            mine.remove(given)
        else:
            holder.remove(index)
        mine.append(index)
    for extra in spare:
        mine.remove(extra)
        state.ticket_deck.insert(0, extra)


def set_table(game_id: int, mine: list[str], theirs: list[str], tickets: list[str]) -> None:
    """Seat 0 holds ``mine`` and ``tickets``, seat 1 ``theirs``: written as the game's new
    state, which the page reads as it reads any change."""
    with transaction.atomic():
        game = write.game_lock(game_id)
        state = state_of(game)
        for route in mine:
            give_route(state, 0, route)
        for route in theirs:
            give_route(state, 1, route)
        if tickets:
            hand_tickets(state, 0, tickets)
        assert violations(state) == []
        write.state_store(game, state, queue_ai=False)


def path_drawn(page: Any) -> dict[str, str]:
    return dict(
        page.eval_on_selector_all(
            "svg.board .ticket-path g.path-leg",
            "nodes => nodes.map(n => [n.dataset.pathRoute, n.classList[1]])",
        )
    )


def spoken(page: Any) -> str:
    """The path in words, as the live region holds it (its en dashes as hyphens)."""
    return str(page.text_content("#ticket-path-text")).replace("\u2013", "-")


def row(ticket: str) -> str:
    return f'#tickets li.ticket[data-ticket="{ticket}"]'


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_tickets_path_is_drawn_from_the_ticket_list(browser, web_server, artifacts, viewport):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    assert view_of(ada, game_id)["state"]["pending"]["seats"] == [0]
    set_table(
        game_id,
        mine=CONNECTED,
        theirs=["berlin-frankfurt-1", "berlin-wien", "cadiz-lisboa", "cadiz-madrid"],
        tickets=["paris-wien", "berlin-roma", "cadiz-stockholm"],
    )
    phone = viewport == "phone"
    options: dict[str, Any] = (
        {"viewport": PHONE, "is_mobile": True, "has_touch": True}
        if phone
        else {"viewport": DESKTOP}
    )
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", **options)
    page.wait_for_selector(row("berlin-roma"), timeout=TIMEOUT_MS)
    page.evaluate("document.documentElement.dataset.motion = 'off'")

    assert page.inner_text(f"{row('paris-wien')} .progress") == "connected"
    assert page.inner_text(f"{row('berlin-roma')} .progress") == "8 trains, 4 routes to go"
    assert page.inner_text(f"{row('cadiz-stockholm')} .progress") == "blocked"
    assert page.get_attribute(row("cadiz-stockholm"), "data-path") == "blocked"

    pick = (lambda s: page.tap(s)) if phone else (lambda s: page.hover(s))
    # The connected ticket: the chain of ada's own routes.
    pick(row("paris-wien"))
    page.wait_for_selector("g.path-leg", state="attached", timeout=TIMEOUT_MS)
    assert path_drawn(page) == {r: "owned" for r in CONNECTED}
    # The planned one: owned and still-to-claim parts drawn apart; the cities lit.
    pick(row("berlin-roma"))
    page.wait_for_selector('g.path-leg[data-path-route="berlin-essen"]', state="attached")
    expected = {r: "to-claim" for r in PLANNED} | {"frankfurt-munchen": "owned"}
    assert path_drawn(page) == expected
    lit = page.eval_on_selector_all("g.city.hl", "nodes => nodes.map(n => n.dataset.city)")
    assert sorted(lit) == ["Berlin", "Roma"]
    said = spoken(page)
    assert said.startswith(
        "Berlin - Roma: planned path Berlin-Essen (to claim), Essen-Frankfurt (to claim)"
    )
    assert "Frankfurt-Munchen (yours)" in said and said.endswith(
        "Venezia-Roma (to claim); 8 trains, 4 routes to go."
    )
    # The car colours stay: the halo lies under the routes.
    layers = page.eval_on_selector_all(
        "svg.board > g", "nodes => nodes.map(n => n.getAttribute('class'))"
    )
    assert layers.index("ticket-path") < layers.index("routes")

    if not phone:
        # Leaving the row clears the path; a blocked ticket lights its cities only, and says so.
        page.hover("#players h3")
        page.wait_for_selector("g.path-leg", state="detached", timeout=TIMEOUT_MS)
        page.hover(row("cadiz-stockholm"))
        assert path_drawn(page) == {}
        assert sorted(
            page.eval_on_selector_all("g.city.hl", "ns => ns.map(n => n.dataset.city)")
        ) == [
            "Cadiz",
            "Stockholm",
        ]
        said = spoken(page)
        assert said == "Cadiz - Stockholm: blocked, no path is left."
        page.hover(row("paris-wien"))
        said = spoken(page)
        assert said.startswith("Paris - Wien: connected by Paris-Frankfurt (yours)")
        page.click(row("berlin-roma"))  # a click pins it, as a tap does
        page.hover("#players h3")
    # Pinned: the path stays, and on the zoomed map the cars keep their colours inside it.
    assert page.locator(f"{row('berlin-roma')}.pinned").count() == 1
    assert path_drawn(page) == expected
    page.click("button.zoom")
    page.wait_for_timeout(400)
    cars = [c for c in car_centres(page, "g.route.on-path") if min(c["w"], c["h"]) > 4]
    assert {c["route"] for c in cars} >= {"frankfurt-munchen", "munchen-venezia"}
    seen = pixels(page, [(c["x"], c["y"]) for c in cars])
    assert all(near(rgb, hex_rgb(c["fill"])) for c, rgb in zip(cars, seen, strict=True))
    page.screenshot(path=str(artifacts / f"ticket-path-{viewport}.png"))
    page.click("button.zoom")

    # The page reads the game again after a change: the pinned path follows it (now ada's
    # own chain), its row says connected, and no row changes height.
    heights = page.eval_on_selector_all("#tickets li.ticket", "ns => ns.map(n => n.offsetHeight)")
    set_table(game_id, mine=[r for r in PLANNED if r != "frankfurt-munchen"], theirs=[], tickets=[])
    page.wait_for_selector(f"{row('berlin-roma')}.done", timeout=TIMEOUT_MS)
    assert page.inner_text(f"{row('berlin-roma')} .progress") == "connected"
    assert path_drawn(page) == {r: "owned" for r in PLANNED}
    assert (
        page.eval_on_selector_all("#tickets li.ticket", "ns => ns.map(n => n.offsetHeight)")
        == heights
    )
    # A second tap (or click) lets it go.
    (page.tap if phone else page.click)(row("berlin-roma"))
    if not phone:
        page.hover("#players h3")
    page.wait_for_selector("g.path-leg", state="detached", timeout=TIMEOUT_MS)


def test_after_the_game_a_ticket_shows_the_path_the_score_sheet_counts(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    finish_with_ai(game_id)
    sheet = next(
        p
        for p in api_as(ada).get(f"/api/v1/games/{game_id}/result").json()["players"]
        if p["seat"] == 0
    )
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    page.wait_for_selector("#result table td.total", timeout=TIMEOUT_MS)
    page.wait_for_selector(f"{row(sheet['tickets'][0]['id'])}[data-path]", timeout=TIMEOUT_MS)
    for ticket in sheet["tickets"]:
        page.hover(row(ticket["id"]))
        progress = page.inner_text(f"{row(ticket['id'])} .progress")
        if ticket["completed"]:
            assert progress == "connected"
            assert set(path_drawn(page)) == set(ticket["path"])
        else:
            assert progress == "not connected"
            assert path_drawn(page) == {}
