"""Listing the legal actions of a seat, kind by kind.

Everything here reads only what the seat itself may know (its hand and offers, the
market, public board state, whether the deck and ticket deck are empty), so the list is
the same for two states that differ only in hidden data.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TypedDict

from .actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    Draw,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    PayTunnel,
    TunnelAnswer,
)
from .board import Route
from .colors import LOCOMOTIVE
from .payments import payment_options
from .phases import (
    CHOOSE_INITIAL_TICKETS,
    KEEP_TICKETS,
    SECOND_CARD,
    TUNNEL_PAYMENT,
    TURN_ACTION,
)
from .state_data import GameData


def draw_actions(s: GameData, seat: int) -> list[Draw]:
    second = s.pending_kind == SECOND_CARD
    no_loco = second and s.board.rules.face_up_locomotive_ends_draw
    out: list[Draw] = [
        DrawFaceUp(i)
        for i, card in enumerate(s.market)
        if card is not None and not (no_loco and card == LOCOMOTIVE)
    ]
    if s.deck or s.discard:
        out.append(DrawBlind())
    return out


def claimable_routes(s: GameData, seat: int) -> list[int]:
    """Indices of the routes ``seat`` could claim now with some payment from its hand."""
    board = s.board
    rules = board.rules
    owner = s.route_owner
    hand = s.hands[seat]
    trains = s.trains[seat]
    doubles = rules.doubles_usable(s.n_players)
    loco_everywhere = not rules.locomotives_only_on_tunnels
    best_color = max(hand[:LOCOMOTIVE])
    out = []
    all_locos = hand[LOCOMOTIVE]
    for color, entries in board.claim_buckets:
        have = best_color if color < 0 else hand[color]
        # The longest route of this colour any payment could cover.
        reach = max(have + all_locos if have else all_locos, have)
        if reach > trains:
            reach = trains
        for index, length, ferry, tunnel, siblings in entries:
            if length > reach:
                break
            if owner[index] != -1:
                continue
            if siblings:
                blocked = False
                for x in siblings:
                    other = owner[x]
                    if other != -1 and (other == seat or not doubles):
                        blocked = True
                if blocked:
                    continue
            locos = all_locos if (loco_everywhere or tunnel) else 0
            if locos < ferry:
                continue
            if locos >= length or (have and have + locos >= length):
                out.append(index)
    out.sort()
    return out


class ClaimTerms(TypedDict):
    """How a claim of a route may be paid: the keyword arguments of ``payments``' checks."""

    required_color: str | None
    min_locomotives: int
    locomotives_allowed: bool


def claim_terms(s: GameData, route: Route) -> ClaimTerms:
    """How a claim of ``route`` may be paid (``ClaimTerms``)."""
    rules = s.board.rules
    return {
        "required_color": None if route.is_gray else route.color,
        "min_locomotives": route.ferry_locomotives,
        "locomotives_allowed": route.tunnel or not rules.locomotives_only_on_tunnels,
    }


def claim_actions_for(s: GameData, seat: int, index: int) -> list[ClaimRoute]:
    route = s.board.routes[index]
    return [
        ClaimRoute(route.id, color, locos)
        for color, locos in payment_options(s.hands[seat], route.length, **claim_terms(s, route))
    ]


def claim_actions(s: GameData, seat: int) -> list[ClaimRoute]:
    return [a for index in claimable_routes(s, seat) for a in claim_actions_for(s, seat, index)]


def station_payments(s: GameData, seat: int) -> list[tuple[str | None, int]]:
    """The distinct ways ``seat`` can pay for its next station (empty if none is left)."""
    rules = s.board.rules
    built = len(s.stations[seat])
    if built >= rules.stations_per_player:
        return []
    return list(
        payment_options(
            s.hands[seat],
            rules.station_costs[built],
            required_color=None,
            min_locomotives=0,
            locomotives_allowed=not rules.locomotives_only_on_tunnels,
        )
    )


def station_actions(s: GameData, seat: int) -> list[BuildStation]:
    options = station_payments(s, seat)
    if not options:
        return []
    return [
        BuildStation(city.name, color, locos)
        for city in s.board.cities
        if s.station_owner[city.index] == -1
        for color, locos in options
    ]


def ticket_draw_actions(s: GameData, seat: int) -> list[DrawTickets]:
    return [DrawTickets()] if s.ticket_deck else []


def keep_actions(s: GameData, seat: int) -> list[KeepTickets]:
    rules = s.board.rules
    offer = [s.board.tickets[t].id for t in s.offers[seat]]
    initial = s.pending.kind == CHOOSE_INITIAL_TICKETS
    minimum = min(rules.initial_keep_min if initial else rules.draw_keep_min, len(offer))
    return [
        KeepTickets(combo)
        for size in range(minimum, len(offer) + 1)
        for combo in combinations(offer, size)
    ]


def tunnel_actions(s: GameData, seat: int) -> list[TunnelAnswer]:
    t = s.tunnel
    assert t is not None
    hand = s.hands[seat]
    out: list[TunnelAnswer] = []
    for locos in range(t.extra + 1):
        if t.color == LOCOMOTIVE and locos != t.extra:
            continue
        if hand[LOCOMOTIVE] >= locos and hand[t.color] >= t.extra - locos:
            out.append(PayTunnel(locos))
    out.append(DeclineTunnel())
    return out


def turn_action_groups(s: GameData, seat: int) -> dict[str, Sequence[Action]]:
    """The turn actions of ``seat`` grouped by kind (only non-empty groups)."""
    groups: dict[str, Sequence[Action]] = {
        "draw_cards": draw_actions(s, seat),
        "claim_route": claim_actions(s, seat),
        "draw_tickets": ticket_draw_actions(s, seat),
        "build_station": station_actions(s, seat),
    }
    return {k: v for k, v in groups.items() if v}


def legal_actions(s: GameData, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now (empty when it is not that seat's decision)."""
    pending = s.pending
    if seat not in pending.seats:
        return []
    kind = pending.kind
    if kind in (CHOOSE_INITIAL_TICKETS, KEEP_TICKETS):
        return list(keep_actions(s, seat))
    if kind == SECOND_CARD:
        return list(draw_actions(s, seat))
    if kind == TUNNEL_PAYMENT:
        return list(tunnel_actions(s, seat))
    assert kind == TURN_ACTION
    return [a for group in turn_action_groups(s, seat).values() for a in group]


def safe_action(s: GameData, seat: int) -> Action | None:
    """The cautious way to settle a pending decision of ``seat`` (for a missed deadline).

    A tunnel is declined, tickets keep the minimum (the lowest-valued ones), a second card
    is drawn blind (or the first allowed face-up card). A fresh turn has no safe default:
    None, and the caller decides (the AI plays it, or the seat forfeits).
    """
    pending = s.pending
    if seat not in pending.seats:
        return None
    kind = pending.kind
    if kind == TUNNEL_PAYMENT:
        return DeclineTunnel()
    if kind in (CHOOSE_INITIAL_TICKETS, KEEP_TICKETS):
        rules = s.board.rules
        initial = kind == CHOOSE_INITIAL_TICKETS
        offer = sorted(s.offers[seat], key=lambda t: (s.board.tickets[t].points, t))
        minimum = min(rules.initial_keep_min if initial else rules.draw_keep_min, len(offer))
        return KeepTickets(tuple(s.board.tickets[t].id for t in offer[:minimum]))
    if kind == SECOND_CARD:
        draws = draw_actions(s, seat)
        blind = [a for a in draws if isinstance(a, DrawBlind)]
        return blind[0] if blind else draws[0]
    return None
