"""What one seat (or a spectator) may see of a game. The only way state reaches a client.

A seat sees its own hand, tickets and offers; of the others only counts. Deck order, the
seed, other hands and tickets, and tickets returned to the deck never appear, until the game
is over, when the final result (with every player's tickets) is public.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .board import Ticket
from .colors import CARD_NAMES
from .state import RULES_VERSION, TUNNEL_PAYMENT, GameState


def _ticket_json(s: GameState, index: int) -> dict[str, Any]:
    return s.board.tickets[index].to_json()


def ticket_joined(t: Ticket, label: list[int]) -> bool:
    """Whether some destination of the ticket is joined in the labelled network."""
    return any(label[x] == label[y] for xs, ys, _p, _n in t.options() for x in xs for y in ys)


def network_labels(s: GameState, routes: list[int]) -> list[int]:
    """A component label per city for the network of ``routes`` (union-find)."""
    parent = list(range(len(s.board.cities)))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for r in routes:
        a, b = s.board.routes[r].city_indices
        parent[root(a)] = root(b)
    return [root(c) for c in range(len(parent))]


def pending_view(s: GameState) -> dict[str, Any] | None:
    """The pending decision as everyone may see it (with a tunnel's face-up cards)."""
    pending = s.pending
    if pending.kind is None:
        return None
    out: dict[str, Any] = {"kind": pending.kind, "seats": list(pending.seats)}
    if pending.kind == TUNNEL_PAYMENT and s.tunnel is not None:
        # Laid cards and revealed cards lie face up on the table: public.
        t = s.tunnel
        out["tunnel"] = {
            "route": s.board.routes[t.route].id,
            "color": CARD_NAMES[t.color],
            "laid": {CARD_NAMES[k]: n for k, n in enumerate(t.laid) if n},
            "revealed": [CARD_NAMES[c] for c in t.revealed],
            "extra": t.extra,
        }
    return out


def player_view(s: GameState, viewer: int | None) -> dict[str, Any]:
    """The game as ``viewer`` (a seat number, or None for a spectator) may see it."""
    return player_views(s, [viewer])[viewer]


def player_views(s: GameState, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """``player_view`` for each of ``viewers``, the public part built once and shared (the
    views differ only in ``you``): treat them as read-only."""
    board = s.board
    owned: list[list[int]] = [[] for _ in range(s.n_players)]
    for index, owner in enumerate(s.route_owner):
        if owner != -1:
            owned[owner].append(index)
    seats = []
    for seat in range(s.n_players):
        seats.append(
            {
                "seat": seat,
                "trains": s.trains[seat],
                "stations_left": s.stations_left(seat),
                "stations": [board.cities[c].name for c in s.stations[seat]],
                "routes": [board.routes[r].id for r in owned[seat]],
                "route_points": s.route_points[seat],
                "hand_size": sum(s.hands[seat]),
                "tickets": len(s.tickets[seat]),
                "tickets_offered": len(s.offers[seat]),
                "forfeited": s.forfeited[seat],
            }
        )
    public: dict[str, Any] = {
        "rules_version": RULES_VERSION,
        "board": board.id,
        "board_options": dict(board.options),
        "players": s.n_players,
        "phase": s.phase,
        "turn": s.turn_number,
        "current_seat": s.current if s.phase == "playing" else None,
        "first_seat": s.first_player,
        "pending": pending_view(s),
        "market": [None if c is None else CARD_NAMES[c] for c in s.market],
        "deck_size": len(s.deck),
        "discard_size": len(s.discard),
        "ticket_deck_size": len(s.ticket_deck),
        "last_round": None
        if s.final_turns_left is None
        else {"triggered_by": s.final_trigger, "turns_left": s.final_turns_left},
        "seats": seats,
        "you": None,
        "result": s.result,
    }
    return {
        viewer: public if viewer is None else {**public, "you": _you(s, viewer, owned[viewer])}
        for viewer in viewers
    }


def _you(s: GameState, viewer: int, owned: list[int]) -> dict[str, Any]:
    """What only the player in seat ``viewer`` (who owns the routes ``owned``) sees."""
    board = s.board
    hand = s.hands[viewer]
    label = network_labels(s, owned)
    return {
        "seat": viewer,
        "hand": {CARD_NAMES[k]: hand[k] for k in range(len(hand))},
        "tickets": [
            {
                **_ticket_json(s, t),
                "connected": ticket_joined(board.tickets[t], label),
            }
            for t in s.tickets[viewer]
        ],
        "offered_tickets": [_ticket_json(s, t) for t in s.offers[viewer]],
    }
