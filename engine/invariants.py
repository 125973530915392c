"""Conservation and range checks that hold in every reachable state."""

from __future__ import annotations

from .state import GameState


def violations(s: GameState) -> list[str]:
    """Every broken invariant of ``s``, as sentences (empty when all hold)."""
    board = s.board
    rules = board.rules
    out = []
    cards = rules.cards_per_color * 8 + rules.locomotives
    if s.card_total() != cards:
        out.append(f"{s.card_total()} train cards instead of {cards}")
    if s.ticket_total() != len(board.tickets):
        out.append(f"{s.ticket_total()} tickets instead of {len(board.tickets)}")
    out += _seat_violations(s)
    if len(s.market) - s.market.count(None) > rules.face_up:
        out.append("too many face-up cards")
    stations = s.stations
    for city, owner in enumerate(s.station_owner):
        if owner != -1 and city not in stations[owner]:
            out.append(f"station in city {city} is not in seat {owner}'s list")
    return out


def _seat_violations(s: GameState) -> list[str]:
    """The broken invariants of each seat's trains, route points, stations and hand."""
    rules = s.board.rules
    routes = s.board.routes
    out = []
    used = [0] * s.n_players
    points = [0] * s.n_players
    for index, owner in enumerate(s.route_owner):
        if owner != -1:
            route = routes[index]
            used[owner] += route.length
            points[owner] += route.points
    most_trains = rules.trains_per_player
    most_stations = rules.stations_per_player
    for seat in range(s.n_players):
        trains = s.trains[seat]
        if not 0 <= trains <= most_trains:
            out.append(f"seat {seat} has {trains} trains")
        if used[seat] != most_trains - trains:
            out.append(f"seat {seat}'s trains do not match its routes")
        if s.route_points[seat] != points[seat]:
            out.append(f"seat {seat}'s route points do not match its routes")
        left = most_stations - len(s.stations[seat])
        if not 0 <= left <= most_stations:
            out.append(f"seat {seat} has {left} stations left")
        if min(s.hands[seat]) < 0:
            out.append(f"seat {seat} holds a negative number of cards")
    return out
