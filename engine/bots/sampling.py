"""Whole game states a seat cannot tell apart from the real one, for look-ahead.

A sample keeps everything public (the board, routes, stations, trains, the market, counts,
whose turn it is) and the seat's own hand, tickets and offers, and draws the rest from what
the seat has not seen: the other hands, the deck and the discard from the unseen cards, the
other players' tickets and offers from the unseen tickets. Nothing hidden is read: the
unseen cards and tickets are counted from the seat's knowledge and the public counts, so
two real states that differ only in hidden data give the same samples.

Opponents' tickets are not drawn blindly: a ticket whose path the opponent's track already
covers is likelier, since players build toward their tickets.
"""

from __future__ import annotations

import math
import random

from ..colors import N_CARD_KINDS
from ..state import GameState
from .knowledge import Knowledge

# How sharply a ticket's likelihood rises with the share of its path an opponent's track
# already covers: a ticket its track joins is about e**6 (400) times likelier than one it
# does not touch.
COVER_SHARPNESS = 6.0


def ticket_beliefs(k: Knowledge) -> dict[int, list[float]]:
    """Per opponent, a relative likelihood per ticket of the board that the opponent holds
    it, from how much of the ticket's shortest path its track already covers."""
    board = k.board
    plain = board.train_distances
    out: dict[int, list[float]] = {}
    origins = sorted({t.city_indices[0] for t in board.tickets})
    for o in k.opponents():
        if not any(owner == o for owner in k.owner):
            out[o] = [1.0] * len(board.tickets)
            continue
        costs: list[float | None] = []
        for r in board.routes:
            if k.owner[r.index] == o:
                costs.append(0.0)
            elif k.open_for(r.index, o):
                costs.append(float(r.length))
            else:
                costs.append(None)
        dist = {a: board.cheapest_from(costs, a) for a in origins}
        weights = []
        for t in board.tickets:
            a, b = t.city_indices
            base, now = plain[a][b], dist[a][b]
            cover = 0.0 if base <= 0 or now == float("inf") else max(0.0, 1.0 - now / base)
            weights.append(math.exp(COVER_SHARPNESS * cover))
        out[o] = weights
    return out


def _draw_weighted(pool: list[int], weights: list[float], rng: random.Random) -> int:
    """Take one entry of ``pool`` with chance proportional to its weight."""
    x = rng.random() * sum(weights)
    i = 0
    while i < len(pool) - 1:
        x -= weights[i]
        if x < 0:
            break
        i += 1
    weights.pop(i)
    return pool.pop(i)


def unseen_cards(state: GameState, k: Knowledge) -> list[int]:
    """Every card the seat cannot see, as a list of card indices (deck, discard, hands)."""
    counts = k.unseen_cards()
    if state.tunnel is not None:
        # Cards laid and revealed for a pending tunnel lie face up on the table.
        for kind, n in enumerate(state.tunnel.laid):
            counts[kind] -= n
        for card in state.tunnel.revealed:
            counts[card] -= 1
    return [kind for kind in range(N_CARD_KINDS) for _ in range(max(0, counts[kind]))]


def sample_state(
    state: GameState,
    seat: int,
    k: Knowledge,
    rng: random.Random,
    beliefs: dict[int, list[float]] | None = None,
) -> GameState:
    """A state the seat cannot tell from ``state``, its hidden parts drawn with ``rng``;
    opponents' tickets weighted by ``beliefs`` (``ticket_beliefs``), if given."""
    board = k.board
    s = state.copy()
    others = k.opponents()

    # Cards: the other hands, the discard and the deck from the unseen cards.
    cards = unseen_cards(state, k)
    _shuffle(cards, rng)
    for o in others:
        hand = [0] * N_CARD_KINDS
        for _ in range(min(k.hand_sizes[o], len(cards))):
            hand[cards.pop()] += 1
        s.hands[o] = hand
    s.discard = [cards.pop() for _ in range(min(k.discard_size, len(cards)))]
    s.deck = cards

    # Tickets: what each opponent holds and is offered, from the unseen tickets; then the
    # ticket deck, and whatever is left was removed from the game.
    mine = {t.index for t in k.tickets} | {t.index for t in k.offers}
    longs = [t.index for t in board.tickets if t.long and t.index not in mine]
    regular = [t.index for t in board.tickets if not t.long and t.index not in mine]
    per_seat_long = board.rules.initial_long_tickets
    if beliefs is None:
        beliefs = ticket_beliefs(k)
    for o in others:
        offered = len(state.offers[o])
        offers: list[int] = []
        # An offer is a random deal, not yet a choice: drawn evenly. A first offer holds
        # the board's long tickets; a later one only regular tickets.
        if o in state.waiting:
            for _ in range(min(per_seat_long, offered, len(longs))):
                offers.append(_draw_weighted(longs, [1.0] * len(longs), rng))
        while len(offers) < offered and regular:
            offers.append(_draw_weighted(regular, [1.0] * len(regular), rng))
        # Kept tickets are the ones its track is likeliest to serve (at most the long
        # tickets a seat is dealt).
        belief = beliefs[o]
        kept: list[int] = []
        long_kept = 0
        for _ in range(len(state.tickets[o])):
            pool = regular + (longs if long_kept < per_seat_long else [])
            if not pool:
                break
            ticket = _draw_weighted(pool, [belief[t] for t in pool], rng)
            if ticket in longs:
                longs.remove(ticket)
                long_kept += 1
            else:
                regular.remove(ticket)
            kept.append(ticket)
        s.tickets[o] = kept
        s.offers[o] = offers
    _shuffle(regular, rng)
    deck = k.ticket_deck_size
    s.ticket_deck = regular[:deck]
    s.removed_tickets = regular[deck:] + longs
    s.seed = int(rng.random() * 2**31)
    return s


def _shuffle(items: list[int], rng: random.Random) -> None:
    # Fisher-Yates on random(): the same draws on every Python version.
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
