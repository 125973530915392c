"""Response examples for the OpenAPI schema, built by the engine itself so they stay true.

A fixed seed and fixed times keep the committed schema stable.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from drf_spectacular.utils import OpenApiExample

from engine import (
    Action,
    DrawBlind,
    GameState,
    KeepTickets,
    event_view,
    load_board,
    new_game,
    player_view,
)
from engine.bots import make_bot, seat_view
from games.serializers.boards import board_summary

_AT = "2026-11-29T12:00:00+00:00"
# A vacation taken earlier in the year, in every vacation example.
_SUMMER = (5, "2026-08-01T09:00:00+00:00", "2026-08-08T09:00:00+00:00")


def _state() -> GameState:
    state = new_game("europe", 2, seed=20261129, first_player=0)
    for seat in (0, 1):
        offered = [state.board.tickets[t].id for t in state.offers[seat]]
        state = state.apply(seat, KeepTickets(tuple(offered[:3])))
    return state


def _summary(version: int) -> dict[str, Any]:
    return {
        "id": 42,
        "board": "europe",
        "options": {},
        "status": "active",
        "version": version,
        "players": 2,
        "created_by": "alice",
        "created_at": _AT,
        "started_at": _AT,
        "finished_at": None,
        "turn_time_limit": 86400,
        "timeout_policy": "ai_plays_turn",
        "deadline": "2026-11-30T12:00:00+00:00",
        "seats": [
            {
                "index": 0,
                "kind": "human",
                "username": "alice",
                "ai_level": None,
                "pending": True,
                "controlled_by": "person",
                "ai_controlled_since": None,
                "can_reclaim": False,
            },
            {
                "index": 1,
                "kind": "ai",
                "username": None,
                "ai_level": "medium",
                "pending": False,
                "controlled_by": "ai",
                "ai_controlled_since": None,
                "can_reclaim": False,
            },
        ],
        "your_seat": 0,
        "your_turn": True,
    }


def game_detail() -> OpenApiExample:
    return OpenApiExample(
        "Seat 0's view at its first turn",
        value={**_summary(3), "state": player_view(_state(), 0)},
        response_only=True,
        status_codes=["200", "201"],
    )


def legal_actions() -> OpenApiExample:
    state = _state()
    actions = [a.to_json() for a in state.legal_actions(0)]
    return OpenApiExample(
        "The first turn (a few of the actions listed)",
        value={
            "version": 3,
            "pending": {"kind": "turn_action", "seats": [0]},
            "actions": actions[:6],
            "can_forfeit": True,
        },
        response_only=True,
    )


def moves() -> OpenApiExample:
    state = _state()
    _, events = state.apply_with_events(0, DrawBlind())
    return OpenApiExample(
        "A blind draw as another seat sees it",
        value={
            "moves": [
                {
                    "number": 3,
                    "seat": 0,
                    "by_ai": False,
                    "action": {"type": "draw_blind"},
                    "events": [event_view(e, 1) for e in events],
                    "version": 4,
                    "at": _AT,
                }
            ],
            "next_after": 3,
            "has_more": False,
        },
        response_only=True,
    )


def game_page() -> OpenApiExample:
    return OpenApiExample(
        "My games, the one where it is my turn first",
        value={"count": 1, "next": None, "previous": None, "results": [_summary(3)]},
        response_only=True,
    )


def boards() -> OpenApiExample:
    # One item: the schema generator wraps a list view's example in the list itself. The
    # board with a game option shows the whole shape; the list holds every board.
    return OpenApiExample(
        "A board (USA 1910 Big Cities, with its game option)",
        value=board_summary(load_board("usa-bigcities")),
        response_only=True,
    )


def board() -> OpenApiExample:
    data = load_board("europe").to_json()
    # The whole map is long: two of each list show the shape.
    for key in ("cities", "routes", "tickets"):
        data[key] = data[key][:2]
    return OpenApiExample("Europe (shortened)", value=data, response_only=True)


@cache
def _finished() -> tuple[GameState, list[tuple[int, Action]]]:
    state = new_game("europe", 2, seed=7, first_player=0)
    bots = [make_bot("medium", 1), make_bot("medium", 2)]
    log = []
    while not state.is_over:
        seat = state.pending.seats[0]
        action = bots[seat].choose(seat_view(state, seat))
        log.append((seat, action))
        state = state.apply(seat, action)
    return state, log


def result() -> OpenApiExample:
    state, _ = _finished()
    return OpenApiExample("A finished 2-player game", value=state.result, response_only=True)


def record() -> OpenApiExample:
    state, log = _finished()
    return OpenApiExample(
        "Seed and log of a finished game (first moves shown)",
        value={
            "board": "europe",
            "players": 2,
            "seed": state.seed,
            "first_player": 0,
            "rules_version": 1,
            "actions": [{"seat": seat, "action": a.to_json()} for seat, a in log[:4]],
        },
        response_only=True,
    )


def extra_time() -> OpenApiExample:
    return OpenApiExample("An hour more", value={"seconds": 3600}, request_only=True)


def join() -> OpenApiExample:
    return OpenApiExample("Take seat 2", value={"seat": 2}, request_only=True)


def _vacations(*rows: tuple[int, str, str], days_left: float) -> dict[str, Any]:
    return {
        "days_per_year": 14,
        "days_left": days_left,
        "vacations": [{"id": i, "starts_at": s, "ends_at": e} for i, s, e in rows],
    }


def vacation_list() -> OpenApiExample:
    return OpenApiExample(
        "One vacation taken this year",
        value=_vacations(_SUMMER, days_left=7.0),
        response_only=True,
    )


def vacation_start() -> list[OpenApiExample]:
    return [
        OpenApiExample("Three days from now", value={"days": 3}, request_only=True),
        OpenApiExample(
            "Started; three days fewer left",
            value=_vacations((6, _AT, "2026-12-02T12:00:00+00:00"), _SUMMER, days_left=4.0),
            response_only=True,
            status_codes=["201"],
        ),
    ]


def vacation_end() -> OpenApiExample:
    return OpenApiExample(
        "Ended after a day; two days back",
        value=_vacations((6, _AT, "2026-11-30T12:00:00+00:00"), _SUMMER, days_left=6.0),
        response_only=True,
    )
