"""The project's Europe data against every entry of the verified reference file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engine import load_board

REFERENCE = Path(__file__).resolve().parent / "reference_data" / "europe.json"
COLOR_ALIASES = {"pink": "purple"}


@pytest.fixture(scope="module")
def ref() -> dict:
    return json.loads(REFERENCE.read_text("utf-8"))


@pytest.fixture(scope="module")
def board():
    return load_board("europe")


def test_it_has_the_reference_counts(ref, board):
    totals = ref["totals"]
    assert len(board.cities) == totals["cities"] == 47
    assert len(board.routes) == totals["routes"] == 101
    assert len(board.tickets) == totals["tickets"] == 46
    assert sum(t.long for t in board.tickets) == totals["tickets_long"] == 6
    assert sum(r.tunnel for r in board.routes) == totals["tunnels"]
    assert sum(1 for r in board.routes if r.ferry_locomotives) == totals["ferries"]
    assert sum(r.ferry_locomotives for r in board.routes) == totals["ferry_locomotive_symbols"]
    assert sum(r.length for r in board.routes) == totals["total_train_spaces"]
    assert sum(r.points for r in board.routes) == totals["total_route_points"]
    groups = Counter(r.double_group for r in board.routes if r.double_group)
    assert len(groups) == totals["double_routes"]
    assert all(n == 2 for n in groups.values())
    pairs = {frozenset(r.cities) for r in board.routes}
    assert len(pairs) == totals["connected_city_pairs"]


def test_every_city_matches_the_reference(ref, board):
    for entry in ref["cities"]:
        city = board.city_by_name[entry["name"]]
        assert (city.x, city.y) == (entry["x"], entry["y"])
        assert list(city.aliases) == entry["aliases"]


def test_every_route_matches_the_reference(ref, board):
    assert [r["id"] for r in ref["routes"]] == [r.id for r in board.routes]
    for entry in ref["routes"]:
        route = board.route_by_id[entry["id"]]
        assert list(route.cities) == entry["cities"]
        assert route.length == entry["length"]
        assert route.color == COLOR_ALIASES.get(entry["color"], entry["color"])
        assert route.tunnel is entry["tunnel"]
        assert route.ferry_locomotives == entry["ferry_locomotives"]
        assert route.double_group == entry["double_group"]
        assert route.points == entry["points"]


def test_every_ticket_matches_the_reference(ref, board):
    assert len(ref["tickets"]) == len(board.tickets)
    for entry in ref["tickets"]:
        ticket = board.ticket_by_id[entry["id"].removeprefix("t-")]
        assert list(ticket.cities) == entry["cities"]
        assert ticket.points == entry["points"]
        assert ticket.long is entry["long"]


def test_route_scoring_matches_the_reference(ref, board):
    assert {str(k): v for k, v in board.rules.route_points.items()} == ref["route_scoring"]


def test_the_board_json_uses_the_reference_keys(ref, board):
    out = board.to_json()
    assert [c["name"] for c in out["cities"]] == [c["name"] for c in ref["cities"]]
    ref_route = ref["routes"][0]
    ours = out["routes"][0]
    for key in ("id", "cities", "length", "color", "tunnel", "ferry_locomotives", "double_group"):
        assert ours[key] == ref_route[key]
    assert set(out["tickets"][0]) >= {"cities", "points", "long"}


def test_lookups_ignore_case_accents_and_accept_aliases(board):
    assert board.city("cádiz").name == "Cadiz"
    assert board.city("ISTANBUL").name == "Constantinople"
    assert board.route("Amsterdam-Bruxelles").id == "amsterdam-bruxelles"
    assert board.city("Atlantis") is None
