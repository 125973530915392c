"""What a bot is given to decide from: one seat's view of the game, and nothing more.

A bot's ``choose`` takes a ``SeatView``, never the game's state. The view carries a
stand-in ``state`` for the engine's listing functions and for sampling, and the seat's
``Knowledge`` (its own hand, tickets and offers, every public count, route and station),
read from the stand-in when first asked for. The stand-in equals the real state in
everything the seat may see; everything it may not see (the other hands and tickets, the
deck, the discard, the ticket deck, the game's seed) is redacted: filled by a fixed rule
from the seat's own data and the public counts alone, the unseen cards and tickets dealt in
order of their index. Two real states that differ only in what the seat cannot see give
the same view, so no bot can read hidden data, even by mistake, and the view holds no
reference to the real state.
"""

from __future__ import annotations

from ..colors import LOCOMOTIVE, N_CARD_KINDS
from ..state import GameState
from .knowledge import Knowledge, know

# The seed every stand-in state carries in place of the game's own.
STAND_IN_SEED = 0


class SeatView:
    """One seat's view: a ``state`` that shows only what the seat sees, and its
    ``knowledge``, read from that state the first time it is asked for."""

    __slots__ = ("_knowledge", "seat", "state")

    def __init__(self, seat: int, state: GameState, knowledge: Knowledge | None = None) -> None:
        self.seat = seat
        self.state = state
        self._knowledge = knowledge

    @property
    def knowledge(self) -> Knowledge:
        if self._knowledge is None:
            self._knowledge = know(self.state, self.seat)
        return self._knowledge


def seat_view(state: GameState, seat: int) -> SeatView:
    """``seat``'s view of ``state``: what a bot deciding for that seat is given."""
    return SeatView(seat, redacted(state, seat))


def redacted(state: GameState, seat: int) -> GameState:
    """A whole game state equal to ``state`` in all ``seat`` sees; what it does not see is
    dealt, in index order, from the cards and tickets it has not seen."""
    s = state.copy()
    _deal_cards(s, seat)
    _deal_tickets(s, seat)
    s.seed = STAND_IN_SEED
    return s


def unseen_card_counts(s: GameState, seat: int) -> list[int]:
    """Per card kind, how many ``seat`` cannot see: not in its hand, face up, or laid or
    revealed for a pending tunnel."""
    rules = s.board.rules
    counts = [rules.cards_per_color] * LOCOMOTIVE + [rules.locomotives]
    hand = s.hands[seat]
    for kind in range(N_CARD_KINDS):
        counts[kind] -= hand[kind]
    for card in s.market:
        if card is not None:
            counts[card] -= 1
    if s.tunnel is not None:
        for kind, n in enumerate(s.tunnel.laid):
            counts[kind] -= n
        for card in s.tunnel.revealed:
            counts[card] -= 1
    return [max(0, n) for n in counts]


def _take(counts: list[int], n: int) -> list[int]:
    """``n`` cards (fewer if fewer are left) taken from ``counts``, lowest kinds first, as
    counts per kind."""
    out = [0] * N_CARD_KINDS
    kind = 0
    while n > 0 and kind < N_CARD_KINDS:
        take = counts[kind]
        if take > n:
            take = n
        out[kind] = take
        counts[kind] -= take
        n -= take
        kind += 1
    return out


def _as_cards(counts: list[int]) -> list[int]:
    out: list[int] = []
    for kind, n in enumerate(counts):
        if n:
            out += [kind] * n
    return out


def _deal_cards(s: GameState, seat: int) -> None:
    """The other hands, then the discard, then the deck, from the unseen cards."""
    counts = unseen_card_counts(s, seat)
    for o in range(s.n_players):
        if o != seat:
            s.hands[o] = _take(counts, sum(s.hands[o]))
    s.discard = _as_cards(_take(counts, len(s.discard)))
    s.deck = _as_cards(counts)


def _deal_tickets(s: GameState, seat: int) -> None:
    """The other seats' offers and tickets, then the ticket deck, from the unseen tickets;
    what is left was removed from the game. A first offer and a seat's tickets take long
    tickets first, up to the number a seat is dealt."""
    board = s.board
    mine = set(s.tickets[seat])
    mine.update(s.offers[seat])
    longs = [t.index for t in board.long_tickets if t.index not in mine]
    regular = [t.index for t in board.regular_tickets if t.index not in mine]
    per_seat_long = board.rules.initial_long_tickets
    for o in range(s.n_players):
        if o == seat:
            continue
        first = o in s.waiting
        s.offers[o] = _pick(longs, regular, len(s.offers[o]), per_seat_long if first else 0)
        s.tickets[o] = _pick(longs, regular, len(s.tickets[o]), per_seat_long)
    size = len(s.ticket_deck)
    pool = regular + longs
    s.ticket_deck = pool[:size]
    s.removed_tickets = pool[size:]


def _pick(longs: list[int], regular: list[int], n: int, most_long: int) -> list[int]:
    """``n`` tickets: up to ``most_long`` from ``longs``, the rest from ``regular`` (then
    from ``longs`` if ``regular`` runs out); taken out of both lists."""
    count = min(most_long, n, len(longs))
    out = longs[:count]
    del longs[:count]
    count = min(n - len(out), len(regular))
    out += regular[:count]
    del regular[:count]
    count = min(n - len(out), len(longs))
    out += longs[:count]
    del longs[:count]
    return out
