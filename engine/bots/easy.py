"""The easy bot: keeps the cheapest tickets, claims along a shortest path, else draws.

It plans one ticket at a time over plain route lengths, never builds stations, and draws
new tickets only when its own are done. Sensible, and easy to beat.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Draw, DrawBlind, DrawTickets, KeepTickets, TunnelAnswer
from ..board import Ticket
from ..colors import CARD_INDEX
from ..legal import claimable_routes, draw_actions
from ..state import GameState
from .base import KnowledgeBot
from .knowledge import Knowledge
from .planner import Costs, pending_tickets, shortest_path
from .tactics import choose_draw, color_needs, keep, offer_subsets, pay_for_route, settle_tunnel


def _length_costs(k: Knowledge) -> Costs:
    return [
        0.0
        if k.owner[r.index] == k.seat
        else float(r.length)
        if k.open_for(r.index, k.seat) and r.length <= k.my_trains
        else None
        for r in k.board.routes
    ]


class EasyBot(KnowledgeBot):
    name = "easy"
    # New tickets only with this many trains left: late tickets are a risk it cannot judge.
    ticket_draw_trains = 25
    # Share of draws taken blind without looking at the face-up cards: part of being easy.
    careless = 0.3
    # With this many cards and nothing on its path to claim, it lays the longest route its
    # spare cards pay for (cards its path does not need, no locomotives) that leaves the
    # trains its tickets need, rather than draw more: a hand of 39 cards next to open
    # routes looks broken, not easy.
    full_hand = 16

    def path_routes(self, k: Knowledge) -> list[int]:
        """Unclaimed routes on a shortest path of the first pending ticket that has one."""
        costs = _length_costs(k)
        for t in pending_tickets(k):
            path = shortest_path(k, costs, *t.city_indices)
            if path is not None:
                return [r for r in path.routes if k.owner[r] != k.seat]
        return []

    def keep_tickets(self, state: GameState, seat: int, k: Knowledge) -> KeepTickets:
        costs = _length_costs(k)
        smallest = min(len(c) for c in offer_subsets(state, k))

        def length(combo: Sequence[Ticket]) -> float:
            total = 0.0
            for t in combo:
                path = shortest_path(k, costs, *t.city_indices)
                total += 99.0 if path is None else path.cost
            return total

        combos = [c for c in offer_subsets(state, k) if len(c) == smallest]
        return keep(min(combos, key=length))

    def turn(self, state: GameState, seat: int, k: Knowledge) -> Action | None:
        wanted = self.path_routes(k)
        claimable = set(claimable_routes(state, seat))
        need = color_needs(k, wanted)
        for r in wanted:
            if r in claimable:
                return pay_for_route(state, seat, k, r, need)
        if not wanted:
            if k.my_trains >= self.ticket_draw_trains and k.ticket_deck_size and not k.last_round:
                return DrawTickets()
            if claimable:
                longest = max(claimable, key=lambda r: (k.board.routes[r].length, -r))
                if k.board.routes[longest].length >= 3 or k.my_trains < 8:
                    return pay_for_route(state, seat, k, longest, [0] * 8)
        if claimable and sum(k.hand) >= self.full_hand:
            spare = self.spare_claims(k, claimable, need)
            if spare:
                longest = max(spare, key=lambda r: (k.board.routes[r].length, -r))
                return pay_for_route(state, seat, k, longest, need)
        return self._draw(state, seat, k, need)

    def spare_claims(self, k: Knowledge, claimable: set[int], need: list[int]) -> list[int]:
        """Claimable routes that cards beyond ``need`` pay for alone, leaving the trains its
        pending tickets' paths still need."""
        costs = _length_costs(k)
        reserve = 0
        for t in pending_tickets(k):
            path = shortest_path(k, costs, *t.city_indices)
            if path is not None:
                reserve += sum(
                    k.board.routes[r].length for r in path.routes if k.owner[r] != k.seat
                )
        room = k.my_trains - reserve
        spare = [k.hand[c] - need[c] for c in range(len(need))]
        out = []
        for r in sorted(claimable):
            route = k.board.routes[r]
            if route.length > room or route.ferry_locomotives:
                continue
            colors = range(len(need)) if route.is_gray else [CARD_INDEX[route.color]]
            if any(spare[c] >= route.length for c in colors):
                out.append(r)
        return out

    def second_card(self, state: GameState, seat: int, k: Knowledge) -> Draw | None:
        return self._draw(state, seat, k, color_needs(k, self.path_routes(k)))

    def _draw(self, state: GameState, seat: int, k: Knowledge, need: list[int]) -> Draw | None:
        if self._random.random() < self.careless and DrawBlind() in draw_actions(state, seat):
            return DrawBlind()
        return choose_draw(state, seat, k, need, 0, take_locomotive=False)

    def tunnel(self, state: GameState, seat: int, k: Knowledge) -> TunnelAnswer:
        return settle_tunnel(state, seat, worth=True)
