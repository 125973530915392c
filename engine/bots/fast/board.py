"""A board as flat tuples of integers, built once per board: what play-outs read."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...board import Board
from ...colors import CARD_INDEX

# Tickets as scoring reads them: (origin nodes, destination nodes, points) per destination.
TicketOptions = tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]


@dataclass(frozen=True, slots=True)
class FastBoard:
    board: Board
    n_routes: int
    n_cities: int
    length: tuple[int, ...]
    color: tuple[int, ...]  # card index, or -1 for gray
    tunnel: tuple[bool, ...]
    ferry: tuple[int, ...]
    points: tuple[int, ...]
    end_a: tuple[int, ...]
    end_b: tuple[int, ...]
    siblings: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[tuple[int, int], ...], ...]  # per city: (route, other city)
    routes_at: tuple[tuple[int, ...], ...]
    ticket_a: tuple[int, ...]  # the ends a planner aims at
    ticket_b: tuple[int, ...]
    ticket_points: tuple[int, ...]
    ticket_options: tuple[TicketOptions, ...]
    ticket_long: tuple[bool, ...]
    # Rules
    face_up: int
    ends_draw: bool  # a face-up locomotive is a whole draw
    loco_limit: int
    locos_only_on_tunnels: bool
    tunnel_cards: int
    end_trigger: int
    draw_tickets: int
    draw_keep_min: int
    initial_keep_min: int
    initial_unkept_removed: bool
    drawn_unkept_removed: bool
    station_costs: tuple[int, ...]
    stations_per_player: int
    unbuilt_station_points: int
    longest_bonus: int
    globetrotter_bonus: int
    tiebreaks: tuple[str, ...]
    doubles_min_players: int
    # Route indices, most points first (then by index): where a claim for points looks.
    by_points: tuple[int, ...] = ()
    # Longest trails met in play-outs, by the sorted routes of a network.
    trails: dict[tuple[int, ...], int] = field(default_factory=dict, compare=False, repr=False)

    def doubles_usable(self, players: int) -> bool:
        return players >= self.doubles_min_players


_CACHE: dict[int, FastBoard] = {}


def fast_board(board: Board) -> FastBoard:
    """The flat form of ``board`` (one per board object, kept for the process)."""
    found = _CACHE.get(id(board))
    if found is not None and found.board is board:
        return found
    rules = board.rules
    routes = board.routes
    fb = FastBoard(
        board=board,
        n_routes=len(routes),
        n_cities=len(board.cities),
        length=tuple(r.length for r in routes),
        color=tuple(-1 if r.is_gray else CARD_INDEX[r.color] for r in routes),
        tunnel=tuple(r.tunnel for r in routes),
        ferry=tuple(r.ferry_locomotives for r in routes),
        points=tuple(r.points for r in routes),
        end_a=tuple(r.city_indices[0] for r in routes),
        end_b=tuple(r.city_indices[1] for r in routes),
        siblings=board.siblings,
        neighbours=board.neighbours,
        routes_at=board.routes_at,
        ticket_a=tuple(t.city_indices[0] for t in board.tickets),
        ticket_b=tuple(t.city_indices[1] for t in board.tickets),
        ticket_points=tuple(t.points for t in board.tickets),
        ticket_options=tuple(
            tuple((xs, ys, p) for xs, ys, p, _name in t.options()) for t in board.tickets
        ),
        ticket_long=tuple(t.long for t in board.tickets),
        face_up=rules.face_up,
        ends_draw=rules.face_up_locomotive_ends_draw,
        loco_limit=rules.face_up_locomotive_limit,
        locos_only_on_tunnels=rules.locomotives_only_on_tunnels,
        tunnel_cards=rules.tunnel_cards,
        end_trigger=rules.end_trigger_trains,
        draw_tickets=rules.draw_tickets,
        draw_keep_min=rules.draw_keep_min,
        initial_keep_min=rules.initial_keep_min,
        initial_unkept_removed=rules.unkept_initial_tickets == "removed",
        drawn_unkept_removed=rules.unkept_drawn_tickets == "removed",
        station_costs=rules.station_costs,
        stations_per_player=rules.stations_per_player,
        unbuilt_station_points=rules.unbuilt_station_points,
        longest_bonus=rules.longest_path_bonus,
        globetrotter_bonus=rules.globetrotter_bonus,
        tiebreaks=rules.tiebreaks,
        doubles_min_players=rules.double_routes_min_players,
        by_points=tuple(sorted(range(len(routes)), key=lambda i: (-routes[i].points, i))),
    )
    _CACHE[id(board)] = fb
    return fb
