"""The map's colours kept apart: every two colours that can meet on the map, read from
board.js, differ by at least a stated CIEDE2000 distance, for normal vision and for
protanopia, deuteranopia and tritanopia as Machado et al. (2009) simulate them.

Thresholds (CIEDE2000, where about 1 is a just noticeable difference side by side):
- normal vision: 20, colours told apart at a glance, also on thin cars;
- each simulated dichromacy: 7, clearly distinct side by side. The map never relies on
  colour alone there: tunnels have dashed edges, ferries discs, claimed cars windows and a
  dark edge, cards their symbols.

The pairs: the route colours (the eight card colours and gray; the locomotive is a card,
never a route) with one another, the player colours with one another and with every route
colour.
"""

from __future__ import annotations

import itertools

import pytest

from .colours import SIMULATIONS, board_colours, ciede2000, distance

NORMAL = 20.0
DICHROMACY = 7.0
# PLAYER_COLORS by seat, as docs/web.md names them.
PLAYER_NAMES = ["pink", "cyan", "brown", "lime", "maroon"]


def meeting_pairs() -> list[tuple[str, str, str, str]]:
    """(name, colour, name, colour) for every two colours that can meet on the map."""
    cards, players = board_colours()
    assert len(players) == len(PLAYER_NAMES)
    routes = [(name, hex_) for name, hex_ in cards.items() if name != "locomotive"]
    seats = list(zip(PLAYER_NAMES, players, strict=True))
    pairs = [
        *itertools.combinations(routes, 2),
        *itertools.combinations(seats, 2),
        *((seat, route) for seat in seats for route in routes),
    ]
    return [(a, ha, b, hb) for (a, ha), (b, hb) in pairs]


def test_ciede2000_gives_the_published_differences():
    # Sharma, Wu and Dalal (2005), test data pairs 1, 7, 17 and 20.
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (58, 24, 15)) == pytest.approx(19.4535, abs=1e-4)


def test_the_simulations_keep_greys_grey_and_tell_red_from_green_less():
    for name, matrix in SIMULATIONS.items():
        if matrix is None:
            continue
        for row in matrix:  # white stays white: each row sums to 1
            assert sum(row) == pytest.approx(1, abs=1e-3), name
        assert distance("#808080", "#808080", matrix) == 0
    red, green = "#ff0000", "#00ff00"
    assert distance(red, green, SIMULATIONS["deuteranopia"]) < distance(red, green) / 3
    assert distance(red, green, SIMULATIONS["protanopia"]) < distance(red, green) / 2


@pytest.mark.parametrize("vision", list(SIMULATIONS))
def test_every_two_colours_that_meet_on_the_map_are_apart(vision):
    matrix = SIMULATIONS[vision]
    least = NORMAL if matrix is None else DICHROMACY
    close = [
        f"{a} {ha} / {b} {hb}: {d:.1f}"
        for a, ha, b, hb in meeting_pairs()
        if (d := distance(ha, hb, matrix)) < least
    ]
    assert not close, f"closer than {least} (CIEDE2000) with {vision}:\n" + "\n".join(close)


def test_lime_is_not_green_and_cyan_is_not_blue():
    cards, players = board_colours()
    lime, cyan = players[PLAYER_NAMES.index("lime")], players[PLAYER_NAMES.index("cyan")]
    for matrix in SIMULATIONS.values():
        least = NORMAL if matrix is None else DICHROMACY
        assert distance(lime, cards["green"], matrix) >= least
        assert distance(cyan, cards["blue"], matrix) >= least
