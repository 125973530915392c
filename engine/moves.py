"""The rules that change a game: checking and applying each action, turn order, the end.

``check_action`` raises before anything changes; ``apply_action`` mutates the (already
copied) state it is given. Both dispatch on the pending decision first, so an action that
does not fit the moment is rejected with ``WRONG_PHASE`` or ``NOT_YOUR_TURN``.
"""

from __future__ import annotations

from .actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    Forfeit,
    KeepTickets,
    PayTunnel,
)
from .board import Route
from .cards import draw_card, refresh_market
from .colors import CARD_NAMES, LOCOMOTIVE, N_CARD_KINDS
from .errors import ErrorCode, MalformedActionError, illegal
from .events import Event
from .legal import claim_terms
from .payments import check_payment
from .phases import (
    CHOOSE_INITIAL_TICKETS,
    GAME_OVER,
    INITIAL_TICKETS,
    KEEP_TICKETS,
    SECOND_CARD,
    TUNNEL_PAYMENT,
    TURN_ACTION,
)
from .state_data import GameData, Tunnel
from .texts import Text, gettext_noop, ngettext
from .turns import begin_play, check_forfeit, end_turn, forfeit_seat

_DRAWS = (TURN_ACTION, SECOND_CARD)
_ALLOWED_KINDS: dict[type[Action], tuple[str, ...]] = {
    KeepTickets: (CHOOSE_INITIAL_TICKETS, KEEP_TICKETS),
    DrawFaceUp: _DRAWS,
    DrawBlind: _DRAWS,
    ClaimRoute: (TURN_ACTION,),
    BuildStation: (TURN_ACTION,),
    DrawTickets: (TURN_ACTION,),
    PayTunnel: (TUNNEL_PAYMENT,),
    DeclineTunnel: (TUNNEL_PAYMENT,),
}
# What the seat must do instead, by the pending decision: ``action`` is the action's type.
_WRONG_PHASE = {
    CHOOSE_INITIAL_TICKETS: gettext_noop(
        "Cannot play %(action)s now: seat %(seat)d must choose the initial tickets to keep."
    ),
    TURN_ACTION: gettext_noop(
        "Cannot play %(action)s now: seat %(seat)d must choose a turn action (draw cards, "
        "claim a route, draw tickets, build a station)."
    ),
    SECOND_CARD: gettext_noop(
        "Cannot play %(action)s now: seat %(seat)d must draw a second train card."
    ),
    TUNNEL_PAYMENT: gettext_noop(
        "Cannot play %(action)s now: seat %(seat)d must pay for the tunnel or decline it."
    ),
    KEEP_TICKETS: gettext_noop(
        "Cannot play %(action)s now: seat %(seat)d must choose which drawn tickets to keep."
    ),
}


def _wrong_phase(kind: str, action: str, seat: int) -> Text:
    template = _WRONG_PHASE[kind].template
    return Text(template, {"action": action, "seat": seat})


def _bad_seat(n_players: int) -> Text:
    return gettext_noop("Seat must be a number from 0 to %(last)d.", last=n_players - 1)


# --------------------------------------------------------------------------- checks
def _check_moment(s: GameData, seat: int, action: Action) -> str:
    """Check that ``seat`` may decide now and that ``action`` fits the pending decision."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n_players:
        raise MalformedActionError(ErrorCode.BAD_SEAT, _bad_seat(s.n_players))
    allowed = _ALLOWED_KINDS.get(type(action))
    if allowed is None:
        raise MalformedActionError(
            ErrorCode.UNKNOWN_ACTION, gettext_noop("Not an action: %(action)r.", action=action)
        )
    if s.phase == GAME_OVER:
        raise illegal(ErrorCode.GAME_OVER, gettext_noop("The game is over."))
    if s.forfeited[seat]:
        raise illegal(
            ErrorCode.FORFEITED,
            gettext_noop("Seat %(seat)d has forfeited and takes no more turns.", seat=seat),
        )
    pending = s.pending
    if seat not in pending.seats:
        if s.phase == INITIAL_TICKETS:
            waiting = ", ".join(str(x) for x in pending.seats)
            raise illegal(
                ErrorCode.NOT_YOUR_TURN,
                ngettext(
                    "Seat %(seat)d has already chosen its tickets; waiting for seat %(waiting)s.",
                    "Seat %(seat)d has already chosen its tickets; waiting for seats %(waiting)s.",
                    len(pending.seats),
                    seat=seat,
                    waiting=waiting,
                ),
            )
        raise illegal(
            ErrorCode.NOT_YOUR_TURN,
            gettext_noop(
                "It is seat %(current)d's turn, not %(seat)d's.", current=s.current, seat=seat
            ),
        )
    kind = pending.kind
    assert kind is not None
    if kind not in allowed:
        raise illegal(
            ErrorCode.WRONG_PHASE,
            _wrong_phase(kind, action.type, seat),
            pending=kind,
        )
    return kind


def _second_draw_possible(s: GameData) -> bool:
    if s.deck or s.discard:
        return True
    ends = s.board.rules.face_up_locomotive_ends_draw
    return any(c is not None and not (ends and c == LOCOMOTIVE) for c in s.market)


def _check_face_up(s: GameData, kind: str, a: DrawFaceUp) -> int:
    if isinstance(a.slot, bool) or not isinstance(a.slot, int) or not 0 <= a.slot < len(s.market):
        raise MalformedActionError(
            ErrorCode.BAD_ACTION,
            gettext_noop("'slot' must be from 0 to %(last)d.", last=len(s.market) - 1),
        )
    card = s.market[a.slot]
    if card is None:
        raise illegal(
            ErrorCode.EMPTY_SLOT, gettext_noop("Face-up slot %(slot)d is empty.", slot=a.slot)
        )
    if card == LOCOMOTIVE and kind == SECOND_CARD and s.board.rules.face_up_locomotive_ends_draw:
        raise illegal(
            ErrorCode.LOCOMOTIVE_NOT_ALLOWED,
            gettext_noop("A face-up locomotive cannot be taken as the second card."),
        )
    return card


def _route(s: GameData, route_id: str) -> Route:
    route = s.board.route_by_id.get(route_id)
    if route is None:
        raise MalformedActionError(
            ErrorCode.UNKNOWN_ROUTE, gettext_noop("Unknown route %(route)r.", route=route_id)
        )
    return route


def check_route_open(s: GameData, seat: int, route: Route) -> None:
    """Raise unless ``seat`` could claim ``route`` given the board and its trains."""
    owner = s.route_owner[route.index]
    if owner != -1:
        raise illegal(
            ErrorCode.ROUTE_TAKEN,
            gettext_noop(
                "%(route)s is already claimed by seat %(owner)d.", route=route.id, owner=owner
            ),
            owner=owner,
        )
    for sibling in s.board.siblings[route.index]:
        other = s.route_owner[sibling]
        if other == seat:
            raise illegal(
                ErrorCode.DOUBLE_ROUTE_OWNED,
                gettext_noop(
                    "Seat %(seat)d already holds the other track of %(double)s; one player may "
                    "never hold both.",
                    seat=seat,
                    double=route.double_group,
                ),
            )
        if other != -1 and not s.board.rules.doubles_usable(s.n_players):
            raise illegal(
                ErrorCode.DOUBLE_ROUTE_CLOSED,
                gettext_noop(
                    "With %(players)d players only one track of %(double)s can be used, and "
                    "the other is taken.",
                    players=s.n_players,
                    double=route.double_group,
                ),
            )
    if s.trains[seat] < route.length:
        raise illegal(
            ErrorCode.NOT_ENOUGH_TRAINS,
            ngettext(
                "%(route)s needs %(length)d train; seat %(seat)d has %(left)d left.",
                "%(route)s needs %(length)d trains; seat %(seat)d has %(left)d left.",
                route.length,
                route=route.id,
                length=route.length,
                seat=seat,
                left=s.trains[seat],
            ),
        )


def _check_claim(s: GameData, seat: int, a: ClaimRoute) -> tuple[Route, int]:
    route = _route(s, a.route)
    check_route_open(s, seat, route)
    color = check_payment(
        s.hands[seat],
        route.length,
        a.color,
        a.locomotives,
        what=gettext_noop("route %(route)s", route=route.id),
        **claim_terms(s, route),
    )
    return route, color


def _check_pay_tunnel(s: GameData, seat: int, a: PayTunnel) -> None:
    t = s.tunnel
    assert t is not None
    if isinstance(a.locomotives, bool) or not isinstance(a.locomotives, int):
        raise MalformedActionError(
            ErrorCode.BAD_ACTION, gettext_noop("'locomotives' must be a whole number.")
        )
    if not 0 <= a.locomotives <= t.extra:
        raise illegal(
            ErrorCode.WRONG_CARD_COUNT,
            ngettext(
                "The tunnel asks for %(extra)d more card; %(locomotives)d locomotives is not a "
                "possible part of that.",
                "The tunnel asks for %(extra)d more cards; %(locomotives)d locomotives is not a "
                "possible part of that.",
                t.extra,
                extra=t.extra,
                locomotives=a.locomotives,
            ),
        )
    if t.color == LOCOMOTIVE and a.locomotives != t.extra:
        raise illegal(
            ErrorCode.WRONG_CARD_COUNT,
            gettext_noop(
                "The tunnel was laid with locomotives only, so every extra card must be a "
                "locomotive."
            ),
        )
    hand = s.hands[seat]
    if hand[LOCOMOTIVE] < a.locomotives or hand[t.color] < t.extra - a.locomotives:
        raise illegal(
            ErrorCode.INSUFFICIENT_CARDS,
            ngettext(
                "Not enough cards: the tunnel needs %(needed)d more %(color)s card and "
                "%(locomotives)d locomotive(s).",
                "Not enough cards: the tunnel needs %(needed)d more %(color)s cards and "
                "%(locomotives)d locomotive(s).",
                t.extra - a.locomotives,
                needed=t.extra - a.locomotives,
                color=CARD_NAMES[t.color],
                locomotives=a.locomotives,
            ),
        )


def _check_keep(s: GameData, seat: int, kind: str, a: KeepTickets) -> list[int]:
    offer = s.offers[seat]
    by_id = s.board.ticket_by_id
    chosen = []
    for tid in a.tickets:
        ticket = by_id.get(tid)
        if ticket is None:
            raise MalformedActionError(
                ErrorCode.UNKNOWN_TICKET, gettext_noop("Unknown ticket %(ticket)r.", ticket=tid)
            )
        if ticket.index not in offer:
            raise illegal(
                ErrorCode.TICKET_NOT_OFFERED,
                gettext_noop("Ticket %(ticket)s is not on offer to you.", ticket=tid),
            )
        chosen.append(ticket.index)
    if len(set(chosen)) != len(chosen):
        raise MalformedActionError(ErrorCode.BAD_ACTION, gettext_noop("A ticket is listed twice."))
    rules = s.board.rules
    minimum = rules.initial_keep_min if kind == CHOOSE_INITIAL_TICKETS else rules.draw_keep_min
    minimum = min(minimum, len(offer))
    if len(chosen) < minimum:
        raise illegal(
            ErrorCode.MUST_KEEP_TICKETS,
            ngettext(
                "Keep at least %(minimum)d of the %(offered)d tickets offered.",
                "Keep at least %(minimum)d of the %(offered)d tickets offered.",
                minimum,
                minimum=minimum,
                offered=len(offer),
            ),
            minimum=minimum,
        )
    return chosen


def _check_station(s: GameData, seat: int, a: BuildStation) -> tuple[int, int]:
    rules = s.board.rules
    if rules.stations_per_player == 0:
        raise illegal(
            ErrorCode.STATIONS_DISABLED,
            gettext_noop("%(board)s is played without stations.", board=s.board.name),
        )
    built = len(s.stations[seat])
    if built >= rules.stations_per_player:
        raise illegal(
            ErrorCode.NO_STATIONS_LEFT,
            gettext_noop("Seat %(seat)d has no stations left.", seat=seat),
        )
    city = s.board.city_by_name.get(a.city)
    if city is None:
        raise MalformedActionError(
            ErrorCode.UNKNOWN_CITY, gettext_noop("Unknown city %(city)r.", city=a.city)
        )
    owner = s.station_owner[city.index]
    if owner != -1:
        raise illegal(
            ErrorCode.STATION_TAKEN,
            gettext_noop(
                "%(city)s already has seat %(owner)d's station.", city=city.name, owner=owner
            ),
            owner=owner,
        )
    cost = rules.station_costs[built]
    color = check_payment(
        s.hands[seat],
        cost,
        a.color,
        a.locomotives,
        required_color=None,
        min_locomotives=0,
        locomotives_allowed=not rules.locomotives_only_on_tunnels,
        what=gettext_noop("station number %(number)d", number=built + 1),
    )
    return city.index, color


def check_action(s: GameData, seat: int, action: Action) -> None:
    if isinstance(action, Forfeit):
        check_forfeit(s, seat)
        return
    kind = _check_moment(s, seat, action)
    if isinstance(action, DrawFaceUp):
        _check_face_up(s, kind, action)
    elif isinstance(action, DrawBlind):
        if not (s.deck or s.discard):
            raise illegal(
                ErrorCode.DECK_EMPTY, gettext_noop("The deck and the discard pile are empty.")
            )
    elif isinstance(action, ClaimRoute):
        _check_claim(s, seat, action)
    elif isinstance(action, PayTunnel):
        _check_pay_tunnel(s, seat, action)
    elif isinstance(action, DrawTickets):
        if not s.ticket_deck:
            raise illegal(
                ErrorCode.NO_TICKETS_LEFT, gettext_noop("No destination tickets are left to draw.")
            )
    elif isinstance(action, KeepTickets):
        _check_keep(s, seat, kind, action)
    elif isinstance(action, BuildStation):
        _check_station(s, seat, action)


def _after_card(s: GameData, kind: str, card: int, face_up: bool, events: list[Event]) -> None:
    ends = s.board.rules.face_up_locomotive_ends_draw
    if kind == SECOND_CARD or (face_up and card == LOCOMOTIVE and ends):
        end_turn(s, events)
    elif _second_draw_possible(s):
        s.pending_kind = SECOND_CARD
    else:
        end_turn(s, events)


def _complete_claim(
    s: GameData, seat: int, route: Route, paid: list[int], events: list[Event]
) -> None:
    s.route_owner[route.index] = seat
    s.trains[seat] -= route.length
    s.route_points[seat] += route.points
    for kind in range(N_CARD_KINDS):
        if paid[kind]:
            s.discard.extend([kind] * paid[kind])
    events.append(
        Event(
            "route_claimed",
            seat,
            {
                "route": route.id,
                "cards": {CARD_NAMES[k]: n for k, n in enumerate(paid) if n},
                "points": route.points,
                "trains_left": s.trains[seat],
            },
        )
    )


def _take(hand: list[int], color: int, count: int, locomotives: int) -> list[int]:
    paid = [0] * N_CARD_KINDS
    if count:
        hand[color] -= count
        paid[color] += count
    if locomotives:
        hand[LOCOMOTIVE] -= locomotives
        paid[LOCOMOTIVE] += locomotives
    return paid


def _apply_claim(s: GameData, seat: int, a: ClaimRoute, events: list[Event]) -> None:
    route, color = _check_claim(s, seat, a)
    hand = s.hands[seat]
    paid = _take(hand, color, route.length - a.locomotives, a.locomotives)
    if not route.tunnel:
        _complete_claim(s, seat, route, paid, events)
        end_turn(s, events)
        return
    revealed = []
    for _ in range(s.board.rules.tunnel_cards):
        card = draw_card(s, events)
        if card is None:
            break
        revealed.append(card)
    if color == LOCOMOTIVE:
        extra = revealed.count(LOCOMOTIVE)
    else:
        extra = sum(1 for c in revealed if c in (color, LOCOMOTIVE))
    events.append(
        Event(
            "tunnel_revealed",
            seat,
            {
                "route": route.id,
                "color": a.color,
                "locomotives": a.locomotives,
                "revealed": [CARD_NAMES[c] for c in revealed],
                "extra": extra,
            },
        )
    )
    if extra == 0:
        _complete_claim(s, seat, route, paid, events)
        s.discard.extend(revealed)
        end_turn(s, events)
        return
    s.tunnel = Tunnel(route.index, color, paid, revealed, extra)
    s.pending_kind = TUNNEL_PAYMENT


def _apply_pay_tunnel(s: GameData, seat: int, a: PayTunnel, events: list[Event]) -> None:
    _check_pay_tunnel(s, seat, a)
    t = s.tunnel
    assert t is not None
    extra = _take(s.hands[seat], t.color, t.extra - a.locomotives, a.locomotives)
    paid = [x + y for x, y in zip(t.laid, extra, strict=True)]
    s.tunnel = None
    _complete_claim(s, seat, s.board.routes[t.route], paid, events)
    s.discard.extend(t.revealed)
    end_turn(s, events)


def _apply_decline(s: GameData, seat: int, events: list[Event]) -> None:
    t = s.tunnel
    assert t is not None
    hand = s.hands[seat]
    for kind in range(N_CARD_KINDS):
        hand[kind] += t.laid[kind]
    s.discard.extend(t.revealed)
    s.tunnel = None
    events.append(Event("tunnel_declined", seat, {"route": s.board.routes[t.route].id}))
    end_turn(s, events)


def _apply_keep(s: GameData, seat: int, kind: str, a: KeepTickets, events: list[Event]) -> None:
    chosen = set(_check_keep(s, seat, kind, a))
    offer = s.offers[seat]
    kept = [t for t in offer if t in chosen]
    returned = [t for t in offer if t not in chosen]
    s.tickets[seat].extend(kept)
    s.offers[seat] = []
    rules = s.board.rules
    initial = kind == CHOOSE_INITIAL_TICKETS
    policy = rules.unkept_initial_tickets if initial else rules.unkept_drawn_tickets
    if policy == "removed":
        s.removed_tickets.extend(returned)
    else:
        # The top of the ticket deck is the end of the list, so the bottom is the front.
        s.ticket_deck[0:0] = returned[::-1]
    ids = s.board.tickets
    events.append(
        Event(
            "tickets_kept",
            seat,
            {"kept": len(kept), "returned": len(returned), "initial": initial},
            {
                "tickets": [ids[t].id for t in kept],
                "returned_tickets": [ids[t].id for t in returned],
            },
        )
    )
    if not initial:
        end_turn(s, events)
        return
    s.waiting.remove(seat)
    if not s.waiting:
        begin_play(s, events)


def _apply_draw_tickets(s: GameData, seat: int, events: list[Event]) -> None:
    count = min(s.board.rules.draw_tickets, len(s.ticket_deck))
    offer = [s.ticket_deck.pop() for _ in range(count)]
    s.offers[seat] = offer
    s.pending_kind = KEEP_TICKETS
    events.append(
        Event(
            "tickets_drawn",
            seat,
            {"count": count},
            {"tickets": [s.board.tickets[t].id for t in offer]},
        )
    )


def _apply_station(s: GameData, seat: int, a: BuildStation, events: list[Event]) -> None:
    city, color = _check_station(s, seat, a)
    cost = s.board.rules.station_costs[len(s.stations[seat])]
    paid = _take(s.hands[seat], color, cost - a.locomotives, a.locomotives)
    for kind in range(N_CARD_KINDS):
        if paid[kind]:
            s.discard.extend([kind] * paid[kind])
    s.station_owner[city] = seat
    s.stations[seat].append(city)
    events.append(
        Event(
            "station_built",
            seat,
            {
                "city": s.board.cities[city].name,
                "cards": {CARD_NAMES[k]: n for k, n in enumerate(paid) if n},
                "stations_left": s.stations_left(seat),
            },
        )
    )
    end_turn(s, events)


def apply_action(s: GameData, seat: int, action: Action, events: list[Event]) -> None:
    """Apply ``action`` for ``seat`` to ``s`` in place (``s`` must be a private copy)."""
    if isinstance(action, Forfeit):
        forfeit_seat(s, seat, events)
        s.action_count += 1
        return
    kind = _check_moment(s, seat, action)
    if isinstance(action, DrawFaceUp):
        card = _check_face_up(s, kind, action)
        s.market[action.slot] = None
        s.hands[seat][card] += 1
        events.append(
            Event(
                "card_drawn",
                seat,
                {"source": "face_up", "slot": action.slot, "color": CARD_NAMES[card]},
            )
        )
        refresh_market(s, events)
        _after_card(s, kind, card, True, events)
    elif isinstance(action, DrawBlind):
        blind = draw_card(s, events)
        if blind is None:
            raise illegal(
                ErrorCode.DECK_EMPTY, gettext_noop("The deck and the discard pile are empty.")
            )
        s.hands[seat][blind] += 1
        events.append(Event("card_drawn", seat, {"source": "deck"}, {"color": CARD_NAMES[blind]}))
        _after_card(s, kind, blind, False, events)
    elif isinstance(action, ClaimRoute):
        _apply_claim(s, seat, action, events)
    elif isinstance(action, PayTunnel):
        _apply_pay_tunnel(s, seat, action, events)
    elif isinstance(action, DeclineTunnel):
        _apply_decline(s, seat, events)
    elif isinstance(action, DrawTickets):
        if not s.ticket_deck:
            raise illegal(
                ErrorCode.NO_TICKETS_LEFT, gettext_noop("No destination tickets are left to draw.")
            )
        _apply_draw_tickets(s, seat, events)
    elif isinstance(action, KeepTickets):
        _apply_keep(s, seat, kind, action, events)
    elif isinstance(action, BuildStation):
        _apply_station(s, seat, action, events)
    s.action_count += 1
