"""Building positions for rule tests without breaking card conservation.

Cards are moved between deck, hands and market rather than created, so every position built
here still holds exactly the 110 train cards.
"""

from __future__ import annotations

from engine import GameState, KeepTickets, new_game
from engine.colors import CARD_INDEX, LOCOMOTIVE, N_CARD_KINDS


def started(
    players: int = 2,
    seed: int = 1,
    first: int = 0,
    board: str = "europe",
    options: dict[str, str] | None = None,
) -> GameState:
    """A game past the initial ticket choice (every seat keeps all it was dealt)."""
    s = new_game(board, players, seed, first_player=first, options=options)
    for seat in range(players):
        offered = [s.board.tickets[t].id for t in s.offers[seat]]
        s = s.apply(seat, KeepTickets(tuple(offered)))
    return s


def _pull(s: GameState, card: int) -> None:
    """Take one card of this kind out of the deck (or the discard pile)."""
    if card in s.deck:
        s.deck.remove(card)
    elif card in s.discard:
        s.discard.remove(card)
    else:
        raise AssertionError(f"no {card} left in deck or discard")


def set_hand(s: GameState, seat: int, **counts: int) -> None:
    """Make the seat's hand exactly ``counts`` (``locomotive=2, red=3``), others zero."""
    hand = s.hands[seat]
    for kind in range(N_CARD_KINDS):
        s.deck.extend([kind] * hand[kind])
        hand[kind] = 0
    for name, count in counts.items():
        kind = CARD_INDEX[name]
        for _ in range(count):
            _pull(s, kind)
        hand[kind] = count


def set_market(s: GameState, *names: str | None) -> None:
    """Lay exactly these face-up cards (None for an empty slot)."""
    for card in s.market:
        if card is not None:
            s.deck.append(card)
    s.market = [None] * len(s.market)
    for i, name in enumerate(names):
        if name is not None:
            kind = CARD_INDEX[name]
            _pull(s, kind)
            s.market[i] = kind


def stack_deck(s: GameState, *names: str) -> None:
    """Put these cards on top of the deck; the first name is drawn first."""
    kinds = [CARD_INDEX[n] for n in names]
    for kind in kinds:
        _pull(s, kind)
    for kind in reversed(kinds):
        s.deck.append(kind)


def empty_deck_into_discard(s: GameState) -> None:
    s.discard.extend(s.deck)
    s.deck = []


def give_route(s: GameState, seat: int, route_id: str) -> None:
    """Let ``seat`` hold a route (trains and points as if claimed), cards untouched."""
    route = s.board.route_by_id[route_id]
    s.route_owner[route.index] = seat
    s.trains[seat] -= route.length
    s.route_points[seat] += route.points


def hand_of(s: GameState, seat: int) -> dict[str, int]:
    from engine.colors import CARD_NAMES

    return {CARD_NAMES[k]: n for k, n in enumerate(s.hands[seat]) if n}


LOCO = LOCOMOTIVE
