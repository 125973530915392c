"""Conservation and range checks that hold in every reachable state."""

from __future__ import annotations

from .state import GameState


def violations(s: GameState) -> list[str]:
    """Every broken invariant of ``s``, as sentences (empty when all hold)."""
    rules = s.board.rules
    out = []
    cards = rules.cards_per_color * 8 + rules.locomotives
    if s.card_total() != cards:
        out.append(f"{s.card_total()} train cards instead of {cards}")
    if s.ticket_total() != len(s.board.tickets):
        out.append(f"{s.ticket_total()} tickets instead of {len(s.board.tickets)}")
    used = [0] * s.n_players
    points = [0] * s.n_players
    for index, owner in enumerate(s.route_owner):
        if owner != -1:
            used[owner] += s.board.routes[index].length
            points[owner] += s.board.routes[index].points
    for seat in range(s.n_players):
        if not 0 <= s.trains[seat] <= rules.trains_per_player:
            out.append(f"seat {seat} has {s.trains[seat]} trains")
        if used[seat] != rules.trains_per_player - s.trains[seat]:
            out.append(f"seat {seat}'s trains do not match its routes")
        if s.route_points[seat] != points[seat]:
            out.append(f"seat {seat}'s route points do not match its routes")
        if not 0 <= s.stations_left(seat) <= rules.stations_per_player:
            out.append(f"seat {seat} has {s.stations_left(seat)} stations left")
        if min(s.hands[seat]) < 0:
            out.append(f"seat {seat} holds a negative number of cards")
    if sum(1 for c in s.market if c is not None) > rules.face_up:
        out.append("too many face-up cards")
    for city, owner in enumerate(s.station_owner):
        if owner != -1 and city not in s.stations[owner]:
            out.append(f"station in city {city} is not in seat {owner}'s list")
    return out
