"""What one seat knows: the public parts of the game and its own hand and tickets.

Bots decide from this and from the listing functions of ``engine.legal`` only. It holds
what ``player_view`` shows the seat and nothing else (a test compares the two); a bot is
handed it in its ``view.SeatView``.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..board import Board, Ticket
from ..colors import LOCOMOTIVE
from ..state import TUNNEL_PAYMENT, GameState
from ..views import network_labels, ticket_joined


@dataclass(slots=True)
class Tunnel:
    """The public part of a pending tunnel: the cards laid and the extra asked for."""

    route: int
    color: int
    extra: int


@dataclass(slots=True)
class Knowledge:
    board: Board
    seat: int
    players: int
    kind: str | None
    hand: list[int]  # counts per card kind, locomotives last
    tickets: list[Ticket]
    connected: list[bool]  # per held ticket: joined by own routes already
    offers: list[Ticket]
    owner: list[int]  # per route: seat or -1
    station_owner: list[int]  # per city: seat or -1
    my_stations: list[int]  # city indices
    trains: list[int]  # per seat
    hand_sizes: list[int]
    ticket_counts: list[int]
    stations_left: list[int]
    route_points: list[int]
    market: list[int | None]
    deck_size: int
    discard_size: int
    ticket_deck_size: int
    last_round: bool
    tunnel: Tunnel | None

    @property
    def my_trains(self) -> int:
        return self.trains[self.seat]

    def opponents(self) -> list[int]:
        return [s for s in range(self.players) if s != self.seat]

    def min_opponent_trains(self) -> int:
        return min((self.trains[s] for s in self.opponents()), default=45)

    def open_for(self, route: int, seat: int) -> bool:
        """Whether ``seat`` could still claim ``route`` (ignoring cards and trains)."""
        if self.owner[route] != -1:
            return False
        doubles = self.board.rules.doubles_usable(self.players)
        return not twin_taken(self.owner, self.board.siblings[route], seat, doubles)

    def unseen_cards(self) -> list[int]:
        """Per card kind, how many are not in this hand or face up (deck, discard, others)."""
        rules = self.board.rules
        out = [rules.cards_per_color] * LOCOMOTIVE + [rules.locomotives]
        for kind, n in enumerate(self.hand):
            out[kind] -= n
        for card in self.market:
            if card is not None:
                out[card] -= 1
        return [max(0, n) for n in out]


def twin_taken(owner: Sequence[int], twins: Sequence[int], seat: int, doubles: bool) -> bool:
    """Whether a twin track shuts a route to ``seat``: one it holds itself, or one anyone
    holds when the double routes are not both usable."""
    for other in twins:
        held = owner[other]
        if held != -1 and (held == seat or not doubles):
            return True
    return False


def aim(board: Board, ticket: Ticket, owner: list[int], seat: int, players: int) -> Ticket:
    """A ticket with several destinations as the plain ticket a planner should chase now.

    Trains still needed are counted over the routes this seat holds (free) or could still
    claim; the destination with the best value for them wins, then the nearer one. When
    every destination is cut off, the board's default aim stays. Plain tickets pass as
    they are.
    """
    if not ticket.multi:
        return ticket
    assert ticket.origin is not None
    doubles = board.rules.doubles_usable(players)
    n = len(board.cities)
    dist = [float("inf")] * n
    heap: list[tuple[float, int]] = []
    for start in ticket.origin.nodes:
        dist[start] = 0.0
        heap.append((0.0, start))
    from_start = list(range(n))  # the origin node each node is reached from
    heapq.heapify(heap)
    while heap:
        d, city = heapq.heappop(heap)
        if d > dist[city]:
            continue
        for r in board.routes_at[city]:
            route = board.routes[r]
            if owner[r] == seat:
                step = 0.0
            elif owner[r] != -1 or twin_taken(owner, board.siblings[r], seat, doubles):
                continue
            else:
                step = float(route.length)
            a, b = route.city_indices
            other = b if a == city else a
            if d + step < dist[other]:
                dist[other] = d + step
                from_start[other] = from_start[city]
                heapq.heappush(heap, (d + step, other))
    best: tuple[float, float, int] | None = None
    chosen: tuple[int, int, int] | None = None
    for order, dest in enumerate(ticket.destinations):
        for end in dest.place.nodes:
            if dist[end] == float("inf"):
                continue
            key = (dist[end] - dest.points, dist[end], order)
            if best is None or key < best:
                best, chosen = key, (from_start[end], end, dest.points)
    if chosen is None:
        return ticket
    a, b, points = chosen
    return replace(
        ticket,
        cities=(board.cities[a].name, board.cities[b].name),
        city_indices=(a, b),
        points=points,
    )


def know(state: GameState, seat: int) -> Knowledge:
    """Everything ``seat`` may know now: the public parts of ``state`` and the seat's own
    hand, tickets and offers, read straight from the state (the look-ahead's play-outs call
    this at every move). It reads nothing ``player_view`` hides from the seat: a test
    checks it equals the knowledge rebuilt from that view, on every board."""
    board = state.board
    owner = list(state.route_owner)
    players = state.n_players
    kind = state.pending.kind
    t = state.tunnel
    tunnel = Tunnel(t.route, t.color, t.extra) if kind == TUNNEL_PAYMENT and t else None
    label = network_labels(state, [r for r, o in enumerate(owner) if o == seat])
    tickets = board.tickets

    def ticket(index: int) -> Ticket:
        return aim(board, tickets[index], owner, seat, players)

    return Knowledge(
        board=board,
        seat=seat,
        players=players,
        kind=kind,
        hand=list(state.hands[seat]),
        tickets=[ticket(i) for i in state.tickets[seat]],
        connected=[ticket_joined(tickets[i], label) for i in state.tickets[seat]],
        offers=[ticket(i) for i in state.offers[seat]],
        owner=owner,
        station_owner=list(state.station_owner),
        my_stations=list(state.stations[seat]),
        trains=list(state.trains),
        hand_sizes=[sum(h) for h in state.hands],
        ticket_counts=[len(x) for x in state.tickets],
        stations_left=[state.stations_left(x) for x in range(players)],
        route_points=list(state.route_points),
        market=list(state.market),
        deck_size=len(state.deck),
        discard_size=len(state.discard),
        ticket_deck_size=len(state.ticket_deck),
        last_round=state.final_turns_left is not None,
        tunnel=tunnel,
    )
