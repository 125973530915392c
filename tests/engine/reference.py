"""The verified reference files in ``tests/engine/reference_data/``, which the board
data is checked against entry by entry. They are copies of the verified board facts, kept in the
repository so the suite reads nothing outside it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

REFERENCE = Path(__file__).resolve().parent / "reference_data"
COLOR_ALIASES = {"pink": "purple"}


def reference(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((REFERENCE / f"{name}.json").read_text("utf-8"))
    return data


def color(name: str) -> str:
    return COLOR_ALIASES.get(name, name)


# The checks below serve the boards whose reference files share one layout (routes between
# the ids ``a`` and ``b``, a ``route_scoring`` table, ``initial_tickets``/``draw_tickets``).


def check_route_totals(board: Any, totals: dict[str, Any]) -> None:
    """Train spaces, city pairs, double routes and segments by length and by colour."""
    routes = board.routes
    assert sum(r.length for r in routes) == totals["total_train_spaces"]
    assert len({frozenset(r.cities) for r in routes}) == totals["city_pairs"]
    groups = Counter(r.double_group for r in routes if r.double_group)
    assert len(groups) == totals["double_routes"] and set(groups.values()) == {2}
    assert Counter(str(r.length) for r in routes) == totals["segments_by_length"]
    colors = Counter(r.color for r in routes)
    assert colors == Counter({color(k): v for k, v in totals["segments_by_color"].items()})


def check_routes(board: Any, ref: dict[str, Any], name: dict[str, str]) -> None:
    """Every route, in order, against its entry; ``name`` maps reference ids to names.

    An entry without ``tunnel`` is no tunnel; none of these boards has ferries.
    """
    assert [r.id for r in board.routes] == [r["id"] for r in ref["routes"]]
    for entry in ref["routes"]:
        route = board.route_by_id[entry["id"]]
        assert route.cities == (name[entry["a"]], name[entry["b"]])
        assert route.length == entry["length"]
        assert route.color == color(entry["color"])
        assert route.tunnel is entry.get("tunnel", False)
        assert route.double_group == entry["double_group"]
        assert route.points == ref["route_scoring"][str(entry["length"])]
        assert route.ferry_locomotives == 0


def check_ticket_rules(rules: Any, ref: dict[str, Any]) -> None:
    """Tickets dealt, drawn and kept, the longest-path bonus, no stations, route points."""
    expected = ref["rules"]
    assert rules.initial_regular_tickets == expected["initial_tickets"]["deal"]
    assert rules.initial_keep_min == expected["initial_tickets"]["keep_min"]
    assert rules.draw_tickets == expected["draw_tickets"]["draw"]
    assert rules.draw_keep_min == expected["draw_tickets"]["keep_min"]
    assert rules.longest_path_bonus == expected["longest_path_bonus"]
    assert rules.stations_per_player == 0
    assert {str(k): v for k, v in rules.route_points.items()} == ref["route_scoring"]
