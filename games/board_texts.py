"""The boards' descriptions, in the caller's language.

They are written in the engine's board files (``engine/data/*.json``), which the message
extraction does not read; so each is repeated here, marked, and a test keeps this list
and the board files the same. City and board names inside them keep the board's spelling.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

from engine import Board

DESCRIPTIONS = (
    # europe
    gettext_noop(
        "Ticket to Ride Europe: 2-5 players, stations, tunnels and ferries, one long ticket "
        "dealt to each player."
    ),
    # usa
    gettext_noop(
        "Ticket to Ride (USA, 2004 tickets): 2-5 players, no stations, tunnels or ferries; "
        "3 tickets dealt, keep 2; longest path +10."
    ),
    # usa-1910
    gettext_noop(
        "USA 1910: the USA map with only the 35 new 1910 tickets; the Globetrotter (+15 for "
        "the most completed tickets) replaces the longest-path bonus."
    ),
    # usa-mega
    gettext_noop(
        "USA 1910 Mega Game: all 69 tickets (the reprinted originals with their revised "
        "values, the 1910 and Mystery Train tickets); deal 5 keep 3, draw 4 keep 1; longest "
        "path +10 and Globetrotter +15."
    ),
    # usa-bigcities, and its option
    gettext_noop(
        "USA 1910 Big Cities: the 35 tickets touching Chicago, Dallas, Houston, Los Angeles, "
        "Miami, New York or Seattle; deal 4 keep 2, draw 4 keep 1; no bonus unless the "
        "'bonus' option chooses one."
    ),
    gettext_noop(
        "End-of-game bonus. The Big Cities rule text names none; some tables play with the "
        "Longest Path card, so it can be chosen."
    ),
    # switzerland
    gettext_noop(
        "Switzerland: 2-3 players, 40 trains, locomotives only on tunnels, country tickets "
        "with several destinations, double routes only with 3 players."
    ),
)


def board_descriptions(board: Board) -> tuple[str, ...]:
    """Every description the board's files hold: the board's, then its options'."""
    return (board.description, *(o.description for o in board.option_specs))


def translated(data: dict[str, Any]) -> dict[str, Any]:
    """A board's JSON (``Board.to_json`` or a summary) with its descriptions and those of
    its options in the active language."""
    out = {**data, "description": gettext(data["description"])}
    if "options" in data:
        out["options"] = [
            {**option, "description": gettext(option["description"])} for option in data["options"]
        ]
    return out
