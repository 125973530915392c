"""Small decisions shared by the bots: which colours a plan needs, how to pay, what to draw."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

from ..actions import (
    ClaimRoute,
    DeclineTunnel,
    Draw,
    DrawBlind,
    DrawFaceUp,
    KeepTickets,
    PayTunnel,
    TunnelAnswer,
)
from ..board import Ticket
from ..colors import CARD_INDEX, LOCOMOTIVE
from ..legal import claim_actions_for, draw_actions, tunnel_actions
from ..state import CHOOSE_INITIAL_TICKETS, GameState
from .knowledge import Knowledge


def color_needs(k: Knowledge, routes: Sequence[int]) -> list[int]:
    """Per colour, the cards the routes ask for; each gray route takes the colour the hand
    has most spare of, longest gray routes first so they get the best colours."""
    need = [0] * LOCOMOTIVE
    grays = []
    for r in routes:
        route = k.board.routes[r]
        if route.is_gray:
            grays.append(route)
        else:
            need[CARD_INDEX[route.color]] += route.length - route.ferry_locomotives
    for route in sorted(grays, key=lambda x: (-x.length, x.index)):
        spare = [k.hand[c] - need[c] for c in range(LOCOMOTIVE)]
        color = max(range(LOCOMOTIVE), key=lambda c: (spare[c], -c))
        need[color] += route.length - route.ferry_locomotives
    return need


def tunnel_risk(k: Knowledge, color: int, spare: int) -> float:
    """Chance the 3-card reveal asks for more than ``spare`` extra cards.

    Cards not seen by this seat (deck, discard, other hands) are treated as one well-mixed
    pool; a revealed card matches when it is ``color`` or a locomotive.
    """
    unseen = k.unseen_cards()
    pool = sum(unseen)
    shown = min(k.board.rules.tunnel_cards, pool)
    if pool == 0 or shown == 0:
        return 0.0
    hits = unseen[LOCOMOTIVE] + (unseen[color] if color != LOCOMOTIVE else 0)
    total = comb(pool, shown)
    fail = 0.0
    for h in range(spare + 1, shown + 1):
        fail += comb(hits, h) * comb(pool - hits, shown - h) / total
    return fail


def claim_tunnel_risk(k: Knowledge, claim: ClaimRoute) -> float:
    """For a claim, the chance a tunnel's reveal asks for more than the hand keeps back."""
    route = k.board.route_by_id[claim.route]
    if not route.tunnel:
        return 0.0
    color = LOCOMOTIVE if claim.color is None else CARD_INDEX[claim.color]
    left = k.hand[LOCOMOTIVE] - claim.locomotives
    if color != LOCOMOTIVE:
        left += k.hand[color] - (route.length - claim.locomotives)
    return tunnel_risk(k, color, left)


def locomotive_need(k: Knowledge, routes: Sequence[int]) -> int:
    return sum(k.board.routes[r].ferry_locomotives for r in routes)


def deficits(k: Knowledge, need: Sequence[int]) -> list[int]:
    return [max(0, need[c] - k.hand[c]) for c in range(LOCOMOTIVE)]


def pay_for_route(
    state: GameState, seat: int, k: Knowledge, route: int, other_need: Sequence[int]
) -> ClaimRoute | None:
    """The payment that spends the fewest locomotives and the fewest cards other planned
    routes still need; None if the hand cannot pay."""
    best: tuple[float, int, ClaimRoute] | None = None
    for i, a in enumerate(claim_actions_for(state, seat, route)):
        cost = 1.3 * a.locomotives
        if a.color is not None:
            c = CARD_INDEX[a.color]
            paid = k.board.routes[route].length - a.locomotives
            before = max(0, other_need[c] - k.hand[c])
            after = max(0, other_need[c] - (k.hand[c] - paid))
            cost += after - before
            # Spend the colour the hand is richest in: fewer stranded odd cards.
            cost -= 0.01 * (k.hand[c] - paid)
        if best is None or (cost, i) < best[:2]:
            best = (cost, i, a)
    return None if best is None else best[2]


def choose_draw(
    state: GameState,
    seat: int,
    k: Knowledge,
    need: Sequence[int],
    locos_needed: int,
    *,
    take_locomotive: bool,
) -> Draw | None:
    """A card draw toward ``need``: the face-up card of the colour most lacking, a face-up
    locomotive when allowed and worth a whole draw, otherwise the deck; None when no card can
    be drawn (deck and market empty), and the caller falls back to any legal move."""
    options = draw_actions(state, seat)
    lack = deficits(k, need)
    best: tuple[int, int, Draw] | None = None
    locomotive: Draw | None = None
    blind: Draw | None = None
    for a in options:
        if isinstance(a, DrawBlind):
            blind = a
            continue
        card = k.market[a.slot]
        if card == LOCOMOTIVE:
            locomotive = a
        elif card is not None and lack[card] > 0 and (best is None or lack[card] > best[0]):
            best = (lack[card], -a.slot, a)
    if best is not None:
        return best[2]
    if locomotive is not None and take_locomotive:
        return locomotive
    if blind is not None:
        return blind
    # The deck is empty: any face-up card, a colour the plan uses most first.
    colored = [
        (-need[card], a.slot, a)
        for a in options
        if isinstance(a, DrawFaceUp)
        and (card := k.market[a.slot]) is not None
        and card != LOCOMOTIVE
    ]
    if colored:
        return min(colored, key=lambda x: x[:2])[2]
    if not options:
        return None
    return options[0]


def hoard_needs(k: Knowledge) -> list[int]:
    """With no plan, gather the colours already held most: they make long routes."""
    top = sorted(range(LOCOMOTIVE), key=lambda c: (-k.hand[c], c))[:2]
    need = [0] * LOCOMOTIVE
    for c in top:
        need[c] = max(6, k.hand[c] + 2)
    return need


def settle_tunnel(state: GameState, seat: int, worth: bool) -> TunnelAnswer:
    """Pay the extra cards (colour before locomotives) if the route is worth it, else
    decline."""
    pays = [a for a in tunnel_actions(state, seat) if isinstance(a, PayTunnel)]
    if worth and pays:
        return min(pays, key=lambda a: a.locomotives)
    return DeclineTunnel()


def keep_minimum(state: GameState, k: Knowledge) -> int:
    rules = k.board.rules
    initial = k.kind == CHOOSE_INITIAL_TICKETS
    return min(rules.initial_keep_min if initial else rules.draw_keep_min, len(k.offers))


def offer_subsets(state: GameState, k: Knowledge) -> list[tuple[Ticket, ...]]:
    low = keep_minimum(state, k)
    return [
        combo for size in range(low, len(k.offers) + 1) for combo in combinations(k.offers, size)
    ]


def keep(tickets: Sequence[Ticket]) -> KeepTickets:
    return KeepTickets(tuple(t.id for t in tickets))
