"""The compact play-out state: the engine's rules on plain lists of integers.

A ``FastState`` holds one determinized game (every hidden part fixed, as a sample draws
it) and applies moves in place. Moves are small tuples (``FACE``, ``BLIND``, ...). The
rules are the engine's, step for step, so that the same moves from the same state lead to
the same cards, the same end and the same scores (``tests/engine/test_fast_playouts.py``
checks this against the engine on sampled positions); what it leaves out is what a
play-out never needs: events, error messages, re-checking a move the caller took from
``legal_moves`` or from the play-out policy, and forfeits during the play-out.
"""

from __future__ import annotations

from itertools import combinations

from ... import rng
from ...colors import LOCOMOTIVE, N_CARD_KINDS
from ...phases import (
    CHOOSE_INITIAL_TICKETS,
    GAME_OVER,
    INITIAL_TICKETS,
    KEEP_TICKETS,
    SECOND_CARD,
    TUNNEL_PAYMENT,
    TURN_ACTION,
)
from ...state_data import GameData
from .board import FastBoard, fast_board

# Phases
INITIAL, TURN, SECOND, TUNNEL, KEEP, OVER = range(6)
# Moves: (FACE, slot), (BLIND,), (CLAIM, route, card paid with, locomotives), (TICKETS,),
# (KEEP_MOVE, *indices of the tickets kept, in increasing order), (STATION, city, card
# paid with, locomotives), (PAY, locomotives), (DECLINE,). "Card paid with" is LOCOMOTIVE
# when only locomotives are. Every move is a flat tuple of integers.
FACE, BLIND, CLAIM, TICKETS, KEEP_MOVE, STATION, PAY, DECLINE = range(8)
FastMove = tuple[int, ...]

_PHASE_OF_KIND = {
    TURN_ACTION: TURN,
    SECOND_CARD: SECOND,
    TUNNEL_PAYMENT: TUNNEL,
    KEEP_TICKETS: KEEP,
}
LOCO = LOCOMOTIVE
KINDS = N_CARD_KINDS
NO_CARD = -1


class FastState:
    __slots__ = (
        "current",
        "deck",
        "discard",
        "fb",
        "final_left",
        "first_player",
        "forfeited",
        "hands",
        "market",
        "n",
        "offers",
        "owner",
        "phase",
        "rpoints",
        "seed",
        "shuffles",
        "skipped",
        "station_owner",
        "stations",
        "ticket_deck",
        "tickets",
        "trains",
        "tunnel",
        "waiting",
    )

    fb: FastBoard
    n: int
    seed: int
    shuffles: int
    phase: int
    current: int
    first_player: int
    waiting: list[int]
    owner: list[int]
    hands: list[list[int]]
    deck: list[int]
    discard: list[int]
    market: list[int]
    trains: list[int]
    rpoints: list[int]
    stations: list[list[int]]
    station_owner: list[int]
    tickets: list[list[int]]
    offers: list[list[int]]
    ticket_deck: list[int]
    final_left: int  # -1 until the last round starts
    skipped: int
    forfeited: list[bool]
    # A pending tunnel: (route, card paid with, laid counts, revealed cards, extra)
    tunnel: tuple[int, int, list[int], list[int], int] | None

    # ------------------------------------------------------------- conversion
    @classmethod
    def from_game(cls, g: GameData) -> FastState:
        """The compact form of an engine state (which holds every hidden part)."""
        s = cls.__new__(cls)
        s.fb = fast_board(g.board)
        s.n = g.n_players
        s.seed = g.seed
        s.shuffles = g.shuffles
        if g.phase == GAME_OVER:
            s.phase = OVER
        elif g.phase == INITIAL_TICKETS:
            s.phase = INITIAL
        else:
            assert g.pending_kind is not None
            s.phase = _PHASE_OF_KIND[g.pending_kind]
        s.current = g.current
        s.first_player = g.first_player
        s.waiting = list(g.waiting)
        s.owner = list(g.route_owner)
        s.hands = [list(h) for h in g.hands]
        s.deck = list(g.deck)
        s.discard = list(g.discard)
        s.market = [NO_CARD if c is None else c for c in g.market]
        s.trains = list(g.trains)
        s.rpoints = list(g.route_points)
        s.stations = [list(x) for x in g.stations]
        s.station_owner = list(g.station_owner)
        s.tickets = [list(t) for t in g.tickets]
        s.offers = [list(o) for o in g.offers]
        s.ticket_deck = list(g.ticket_deck)
        s.final_left = -1 if g.final_turns_left is None else g.final_turns_left
        s.skipped = g.skipped_in_row
        s.forfeited = list(g.forfeited)
        t = g.tunnel
        s.tunnel = (
            None if t is None else (t.route, t.color, list(t.laid), list(t.revealed), t.extra)
        )
        return s

    def copy(self) -> FastState:
        c = FastState.__new__(FastState)
        c.fb = self.fb
        c.n = self.n
        c.seed = self.seed
        c.shuffles = self.shuffles
        c.phase = self.phase
        c.current = self.current
        c.first_player = self.first_player
        c.waiting = self.waiting[:]
        c.owner = self.owner[:]
        c.hands = [h[:] for h in self.hands]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.market = self.market[:]
        c.trains = self.trains[:]
        c.rpoints = self.rpoints[:]
        c.stations = [x[:] for x in self.stations]
        c.station_owner = self.station_owner[:]
        c.tickets = [t[:] for t in self.tickets]
        c.offers = [o[:] for o in self.offers]
        c.ticket_deck = self.ticket_deck[:]
        c.final_left = self.final_left
        c.skipped = self.skipped
        c.forfeited = self.forfeited[:]
        t = self.tunnel
        c.tunnel = None if t is None else (t[0], t[1], t[2][:], t[3][:], t[4])
        return c

    # ---------------------------------------------------------------- queries
    @property
    def over(self) -> bool:
        return self.phase == OVER

    def to_move(self) -> int:
        """The seat that decides next (the first still to choose, at the start)."""
        return self.waiting[0] if self.phase == INITIAL else self.current

    def last_round(self) -> bool:
        return self.final_left >= 0

    def open_for(self, route: int, seat: int) -> bool:
        """Unclaimed, and no twin track shuts it to ``seat``."""
        owner = self.owner
        if owner[route] != -1:
            return False
        sibs = self.fb.siblings[route]
        if sibs:
            doubles = self.n >= self.fb.doubles_min_players
            for x in sibs:
                o = owner[x]
                if o != -1 and (o == seat or not doubles):
                    return False
        return True

    # ---------------------------------------------------------------- payments
    def payments(self, seat: int, route: int) -> list[tuple[int, int]]:
        """Every (card paid with, locomotives) the hand can pay ``route`` with, in the
        engine's order."""
        fb = self.fb
        hand = self.hands[seat]
        cost = fb.length[route]
        allowed = fb.tunnel[route] or not fb.locos_only_on_tunnels
        locos = hand[LOCO] if allowed else 0
        low_locos = fb.ferry[route]
        if low_locos > locos:
            return []
        required = fb.color[route]
        out = []
        for c in (required,) if required >= 0 else range(LOCO):
            have = hand[c]
            if not have:
                continue
            low = max(low_locos, cost - have)
            high = min(locos, cost - 1)
            for k in range(low, high + 1):
                out.append((c, k))
        if locos >= cost:
            out.append((LOCO, cost))
        return out

    def station_payments(self, seat: int) -> list[tuple[int, int]]:
        fb = self.fb
        built = len(self.stations[seat])
        if built >= fb.stations_per_player:
            return []
        hand = self.hands[seat]
        cost = fb.station_costs[built]
        locos = 0 if fb.locos_only_on_tunnels else hand[LOCO]
        out = []
        for c in range(LOCO):
            have = hand[c]
            if not have:
                continue
            for k in range(max(0, cost - have), min(locos, cost - 1) + 1):
                out.append((c, k))
        if locos >= cost:
            out.append((LOCO, cost))
        return out

    def can_claim(self, seat: int, route: int) -> bool:
        """Whether some payment from the hand claims ``route`` now."""
        fb = self.fb
        if self.trains[seat] < fb.length[route] or not self.open_for(route, seat):
            return False
        hand = self.hands[seat]
        cost = fb.length[route]
        locos = hand[LOCO] if (fb.tunnel[route] or not fb.locos_only_on_tunnels) else 0
        if fb.ferry[route] > locos:
            return False
        if locos >= cost:
            return True
        c = fb.color[route]
        have = hand[c] if c >= 0 else max(hand[:LOCO])
        return have > 0 and have + locos >= cost

    def claimable(self, seat: int) -> list[int]:
        return [r for r in range(self.fb.n_routes) if self.can_claim(seat, r)]

    # ------------------------------------------------------------- legal moves
    def draw_moves(self) -> list[FastMove]:
        no_loco = self.phase == SECOND and self.fb.ends_draw
        out: list[FastMove] = [
            (FACE, i)
            for i, c in enumerate(self.market)
            if c != NO_CARD and not (no_loco and c == LOCO)
        ]
        if self.deck or self.discard:
            out.append((BLIND,))
        return out

    def keep_moves(self, seat: int) -> list[FastMove]:
        offer = self.offers[seat]
        fb = self.fb
        low = fb.initial_keep_min if self.phase == INITIAL else fb.draw_keep_min
        low = min(low, len(offer))
        return [
            (KEEP_MOVE, *combo)
            for size in range(low, len(offer) + 1)
            for combo in combinations(sorted(offer), size)
        ]

    def legal_moves(self) -> list[FastMove]:
        """Every legal move of the seat to decide (``to_move``)."""
        phase = self.phase
        seat = self.to_move()
        if phase == OVER:
            return []
        if phase in (INITIAL, KEEP):
            return self.keep_moves(seat)
        if phase == SECOND:
            return self.draw_moves()
        if phase == TUNNEL:
            assert self.tunnel is not None
            _route, color, _laid, _rev, extra = self.tunnel
            hand = self.hands[seat]
            out: list[FastMove] = []
            for k in range(extra + 1):
                if color == LOCO and k != extra:
                    continue
                if hand[LOCO] >= k and hand[color] >= extra - k:
                    out.append((PAY, k))
            out.append((DECLINE,))
            return out
        out = self.draw_moves()
        for r in self.claimable(seat):
            out.extend((CLAIM, r, c, k) for c, k in self.payments(seat, r))
        if self.ticket_deck:
            out.append((TICKETS,))
        pays = self.station_payments(seat)
        if pays:
            for city, o in enumerate(self.station_owner):
                if o == -1:
                    out.extend((STATION, city, c, k) for c, k in pays)
        return out

    # ------------------------------------------------------------------ cards
    def _draw_card(self) -> int:
        if not self.deck:
            if not self.discard:
                return NO_CARD
            deck = self.discard
            self.discard = []
            rng.shuffle(deck, self.seed, f"reshuffle-{self.shuffles}")
            self.shuffles += 1
            self.deck = deck
        return self.deck.pop()

    def _refresh_market(self) -> None:
        market = self.market
        for i in range(len(market)):
            if market[i] == NO_CARD:
                card = self._draw_card()
                if card == NO_CARD:
                    break
                market[i] = card
        limit = self.fb.loco_limit
        resets = 0
        while limit and market.count(LOCO) >= limit:
            showing = [c for c in market if c != NO_CARD]
            pool = len(self.deck) + len(self.discard) + len(showing)
            locos = self.deck.count(LOCO) + self.discard.count(LOCO) + showing.count(LOCO)
            size = min(len(market), pool)
            if pool - locos < size - (limit - 1) or resets >= 100:
                break
            self.discard.extend(showing)
            for i in range(len(market)):
                market[i] = NO_CARD
            for i in range(len(market)):
                card = self._draw_card()
                if card == NO_CARD:
                    break
                market[i] = card
            resets += 1

    def _second_draw_possible(self) -> bool:
        if self.deck or self.discard:
            return True
        ends = self.fb.ends_draw
        return any(c != NO_CARD and not (ends and c == LOCO) for c in self.market)

    def _after_card(self, card: int, face_up: bool) -> None:
        if self.phase == SECOND or (face_up and card == LOCO and self.fb.ends_draw):
            self._end_turn()
        elif self._second_draw_possible():
            self.phase = SECOND
        else:
            self._end_turn()

    # ------------------------------------------------------------------ turns
    def _active(self) -> int:
        return self.n - sum(self.forfeited)

    def _end_turn(self) -> None:
        self._refresh_market()
        seat = self.current
        if self.final_left < 0:
            if self.trains[seat] <= self.fb.end_trigger:
                self.final_left = self._active()
        else:
            self.final_left -= 1
            if self.final_left <= 0:
                self.phase = OVER
                return
        self._start_next_turn()

    def _start_next_turn(self) -> None:
        while True:
            seat = self.current
            for _ in range(self.n):
                seat = (seat + 1) % self.n
                if not self.forfeited[seat]:
                    break
            else:
                self.phase = OVER
                return
            self.current = seat
            self.phase = TURN
            if self._has_any_action(seat):
                self.skipped = 0
                return
            self.skipped += 1
            if self.skipped >= self._active():
                self.phase = OVER
                return
            # The turn passes: the engine's end of turn, then the next seat.
            self._refresh_market()
            if self.final_left < 0:
                if self.trains[seat] <= self.fb.end_trigger:
                    self.final_left = self._active()
            else:
                self.final_left -= 1
                if self.final_left <= 0:
                    self.phase = OVER
                    return

    def _has_any_action(self, seat: int) -> bool:
        if self.deck or self.discard or any(c != NO_CARD for c in self.market):
            return True
        if self.ticket_deck:
            return True
        if -1 in self.station_owner and self.station_payments(seat):
            return True
        return any(self.can_claim(seat, r) for r in range(self.fb.n_routes))

    def _begin_play(self) -> None:
        self.current = self.first_player
        if self.forfeited[self.current]:
            self.current = (self.current - 1) % self.n
            self._start_next_turn()
            return
        self.phase = TURN

    # ------------------------------------------------------------------ moves
    def _take(self, seat: int, color: int, count: int, locos: int) -> list[int]:
        hand = self.hands[seat]
        paid = [0] * KINDS
        if count:
            hand[color] -= count
            paid[color] += count
        if locos:
            hand[LOCO] -= locos
            paid[LOCO] += locos
        return paid

    def _complete_claim(self, seat: int, route: int, paid: list[int]) -> None:
        fb = self.fb
        self.owner[route] = seat
        self.trains[seat] -= fb.length[route]
        self.rpoints[seat] += fb.points[route]
        discard = self.discard
        for kind in range(KINDS):
            if paid[kind]:
                discard.extend([kind] * paid[kind])

    def apply(self, move: FastMove) -> None:
        """Play ``move`` for the seat to decide, in place. The move must be legal."""
        kind = move[0]
        seat = self.to_move()
        if kind == FACE:
            slot = move[1]
            card = self.market[slot]
            self.market[slot] = NO_CARD
            self.hands[seat][card] += 1
            self._refresh_market()
            self._after_card(card, True)
        elif kind == BLIND:
            card = self._draw_card()
            self.hands[seat][card] += 1
            self._after_card(card, False)
        elif kind == CLAIM:
            self._claim(seat, move[1], move[2], move[3])
        elif kind == PAY:
            assert self.tunnel is not None
            route, color, laid, revealed, extra = self.tunnel
            more = self._take(seat, color, extra - move[1], move[1])
            self.tunnel = None
            self._complete_claim(seat, route, [a + b for a, b in zip(laid, more, strict=True)])
            self.discard.extend(revealed)
            self._end_turn()
        elif kind == DECLINE:
            assert self.tunnel is not None
            _route, _color, laid, revealed, _extra = self.tunnel
            hand = self.hands[seat]
            for k in range(KINDS):
                hand[k] += laid[k]
            self.discard.extend(revealed)
            self.tunnel = None
            self._end_turn()
        elif kind == TICKETS:
            count = min(self.fb.draw_tickets, len(self.ticket_deck))
            self.offers[seat] = [self.ticket_deck.pop() for _ in range(count)]
            self.phase = KEEP
        elif kind == KEEP_MOVE:
            self._keep(seat, move[1:])
        elif kind == STATION:
            city, color, locos = move[1], move[2], move[3]
            cost = self.fb.station_costs[len(self.stations[seat])]
            paid = self._take(seat, color, cost - locos, locos)
            for k in range(KINDS):
                if paid[k]:
                    self.discard.extend([k] * paid[k])
            self.station_owner[city] = seat
            self.stations[seat].append(city)
            self._end_turn()
        else:
            raise ValueError(f"not a move: {move!r}")

    def _claim(self, seat: int, route: int, color: int, locos: int) -> None:
        fb = self.fb
        paid = self._take(seat, color, fb.length[route] - locos, locos)
        if not fb.tunnel[route]:
            self._complete_claim(seat, route, paid)
            self._end_turn()
            return
        revealed = []
        for _ in range(fb.tunnel_cards):
            card = self._draw_card()
            if card == NO_CARD:
                break
            revealed.append(card)
        if color == LOCO:
            extra = revealed.count(LOCO)
        else:
            extra = sum(1 for c in revealed if c in (color, LOCO))
        if extra == 0:
            self._complete_claim(seat, route, paid)
            self.discard.extend(revealed)
            self._end_turn()
            return
        self.tunnel = (route, color, paid, revealed, extra)
        self.phase = TUNNEL

    def _keep(self, seat: int, chosen: tuple[int, ...]) -> None:
        offer = self.offers[seat]
        kept = [t for t in offer if t in chosen]
        returned = [t for t in offer if t not in chosen]
        self.tickets[seat].extend(kept)
        self.offers[seat] = []
        initial = self.phase == INITIAL
        removed = self.fb.initial_unkept_removed if initial else self.fb.drawn_unkept_removed
        if not removed:
            self.ticket_deck[0:0] = returned[::-1]
        if not initial:
            self._end_turn()
            return
        self.waiting.remove(seat)
        if not self.waiting:
            self._begin_play()


__all__ = [
    "BLIND",
    "CHOOSE_INITIAL_TICKETS",
    "CLAIM",
    "DECLINE",
    "FACE",
    "INITIAL",
    "KEEP",
    "KEEP_MOVE",
    "OVER",
    "PAY",
    "SECOND",
    "STATION",
    "TICKETS",
    "TUNNEL",
    "TURN",
    "FastMove",
    "FastState",
]
