"""The land and sea behind every board (web/static/web/maps/, built by scripts/maps) and
the map's key: drawn under the routes, taking no clicks, with every city on land."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from .pages import PHONE, TIMEOUT_MS, game_against_ai, make_user, open_as

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "web" / "static" / "web" / "maps"
BUILD = ROOT / "scripts" / "maps"
BOARDS = ["europe", "switzerland", "usa", "usa-1910", "usa-bigcities", "usa-mega"]
# How far (board units of 1000) a city may be from the land the fit puts around it: a port
# on a coast the simplified outline cuts close.
NEAR = 10

# The cities farther than `near` from where they belong, found by sampling rings of points
# around each with the backdrop paths' isPointInFill. "land": on land and in no lake.
# "switzerland": a Swiss town in Switzerland, a border point (and Vaduz, in Liechtenstein)
# out of it.
CITIES_ASTRAY = """([near, rule]) => {
    const svg = document.querySelector("svg.board");
    const fill = (cls) => [...svg.querySelectorAll(`.backdrop path.${cls}`)];
    const [land, lakes, home] = [fill("land"), fill("lake"), fill("home")];
    const inside = (paths, x, y) => paths.some((p) => p.isPointInFill(new DOMPoint(x, y)));
    const far = [];
    for (const g of svg.querySelectorAll("g.city")) {
        const c = g.querySelector("circle");
        const x = +c.getAttribute("cx"), y = +c.getAttribute("cy");
        const abroad = g.classList.contains("border-point") || g.dataset.city === "Vaduz";
        const good = rule === "land"
            ? (px, py) => inside(land, px, py) && !inside(lakes, px, py)
            : (px, py) => inside(home, px, py) !== abroad;
        let found = good(x, y);
        for (let r = 1; !found && r <= near; r += 1) {
            for (let a = 0; a < 24 && !found; a++) {
                const t = (a / 24) * 2 * Math.PI;
                found = good(x + r * Math.cos(t), y + r * Math.sin(t));
            }
        }
        if (!found) far.push(g.dataset.city);
    }
    return far;
}"""


def expected_keys(board: str) -> list[str]:
    data = json.loads((ROOT / "engine" / "data" / f"{board}.json").read_text())
    geo = json.loads((ROOT / "engine" / "data" / f"{data.get('map', board)}.json").read_text())
    columns = geo["_columns"]["routes"]
    routes = [dict(zip(columns, r, strict=True)) for r in geo["routes"]]
    keys = []
    if any(r["kind"] == "tunnel" for r in routes):
        keys.append("tunnel")
    if any(r["ferry_locomotives"] for r in routes):
        keys.append("ferry")
    if data["rules"]["stations_per_player"] > 0:
        keys.append("station")
    if any(r["double_group"] for r in routes):
        keys.append("double")
    return keys


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_fast_passwords")
@pytest.mark.parametrize("board", BOARDS)
def test_every_board_draws_its_land_under_the_routes(browser, web_server, artifacts, board):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1, board=board)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    page.wait_for_selector("svg.board .backdrop path.land", state="attached", timeout=TIMEOUT_MS)
    layers = page.eval_on_selector(
        "svg.board", "svg => [...svg.children].map((n) => n.getAttribute('class'))"
    )
    # The sea, then the land, then everything the game draws.
    assert layers.index("backdrop") == layers.index("sea") + 1, layers
    assert layers.index("backdrop") < layers.index("overlays") < layers.index("routes"), layers
    # A coast (on Switzerland, all land: its own border) drawn from hundreds of points.
    coast = "land" if board != "switzerland" else "home"
    outline = page.get_attribute(f"svg.board .backdrop path.{coast}", "d") or ""
    assert outline.startswith("M") and len(re.findall(r"-?\d+", outline)) > 400, outline[:200]
    if board != "switzerland":
        assert page.get_attribute("svg.board .backdrop path.coast", "d")
    events = page.eval_on_selector("svg.board .backdrop", "g => getComputedStyle(g).pointerEvents")
    assert events == "none"
    # Every city on land, or within NEAR of it.
    assert page.evaluate(CITIES_ASTRAY, [NEAR, "land"]) == []
    # The backdrop takes no clicks: a city's dot, where the land lies under it, is the city.
    hit = page.eval_on_selector(
        "g.city circle",
        """c => { const b = c.getBoundingClientRect();
            const n = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
            return n && n.closest('g.city') ? 'city' : (n ? n.getAttribute('class') : null); }""",
    )
    assert hit == "city"
    # The key names what this board has, and only that.
    page.wait_for_selector("details.map-key[open] li", timeout=TIMEOUT_MS)
    keys = page.eval_on_selector_all("details.map-key li", "ls => ls.map((l) => l.dataset.key)")
    assert keys == expected_keys(board)
    text = page.inner_text("details.map-key")
    for key, word in [
        ("tunnel", "Tunnel"),
        ("ferry", "Ferry"),
        ("station", "Station"),
        ("double", "Double route"),
    ]:
        assert (word in text) == (key in keys), text
    if board == "europe":
        assert keys == ["tunnel", "ferry", "station", "double"]
        assert "locomotive" in text
    if board == "switzerland":
        # The neighbours' borders, and Switzerland itself set apart.
        assert page.get_attribute("svg.board .backdrop path.border", "d")
        assert page.get_attribute("svg.board .backdrop path.home", "d")
        assert page.evaluate(CITIES_ASTRAY, [NEAR, "switzerland"]) == []
    page.screenshot(path=str(artifacts / f"desktop-map-{board}.png"))
    page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_fast_passwords")
def test_the_key_is_folded_under_the_map_on_a_phone(browser, web_server, artifacts):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=2, board="europe")
    page = open_as(
        browser,
        web_server.url,
        ada,
        f"#/game/{game_id}",
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
    )
    page.wait_for_selector("svg.board .backdrop path.land", state="attached", timeout=TIMEOUT_MS)
    page.wait_for_selector("details.map-key summary", timeout=TIMEOUT_MS)
    assert page.eval_on_selector("details.map-key", "d => d.open") is False
    summary = page.locator("details.map-key summary").bounding_box()
    svg = page.locator("svg.board").bounding_box()
    assert summary and svg and summary["height"] >= 44
    assert summary["y"] >= svg["y"] + svg["height"] - 1  # under the map, over no city
    page.tap("details.map-key summary")
    page.wait_for_selector("details.map-key[open] li[data-key=ferry]", timeout=TIMEOUT_MS)
    page.screenshot(path=str(artifacts / "phone-map-europe.png"))
    page.context.close()


def test_every_board_has_a_map_file_built_from_the_inputs_now():
    """The committed map files were built from today's cities, places, script and lock
    file: `make maps` is run again whenever one of them changes."""
    index = (MAPS / "index.js").read_text()
    map_of = json.loads(re.search(r"MAP_OF = (\{.*?\});", index, re.S).group(1))  # type: ignore[union-attr]
    assert sorted(map_of) == sorted(p.stem for p in (ROOT / "engine" / "data").glob("*.json"))
    for name in sorted(set(map_of.values())):
        built = json.loads((MAPS / f"{name}.json").read_text())
        cities = json.loads((ROOT / "engine" / "data" / f"{name}.json").read_text())["cities"]
        key = "".join(f"{c[0]},{c[1]},{c[2]}\n" for c in cities)
        inputs = "\n".join(
            [
                key,
                (BUILD / "places.json").read_text(),
                (BUILD / "build.mjs").read_text(),
                (BUILD / "package-lock.json").read_text(),
            ]
        )
        assert built["inputs"] == hashlib.sha256(inputs.encode()).hexdigest(), name
        # Small, and fitted closely: the figures docs/web.md gives.
        assert (MAPS / f"{name}.json").stat().st_size < 40_000
        final = built["fit"]["final"]
        assert final["median"] <= 8 and final["max"] <= 25, built["fit"]
