"""Train cards: drawing from the deck (reshuffling the discard pile) and the face-up display."""

from __future__ import annotations

from . import rng
from .colors import CARD_NAMES, LOCOMOTIVE
from .events import Event
from .state_data import GameData


def _reshuffle(s: GameData, events: list[Event]) -> None:
    s.deck = s.discard
    s.discard = []
    rng.shuffle(s.deck, s.seed, f"reshuffle-{s.shuffles}")
    s.shuffles += 1
    events.append(Event("deck_reshuffled", None, {"deck_size": len(s.deck)}))


def draw_card(s: GameData, events: list[Event]) -> int | None:
    """The top card of the deck, reshuffling the discard pile into the deck when it is empty."""
    if not s.deck:
        if not s.discard:
            return None
        _reshuffle(s, events)
    return s.deck.pop()


def _market_json(s: GameData) -> list[str | None]:
    return [None if c is None else CARD_NAMES[c] for c in s.market]


def refresh_market(s: GameData, events: list[Event]) -> None:
    """Fill empty face-up slots, then apply the locomotive limit (no endless loop)."""
    changed = False
    market = s.market
    for i, card in enumerate(market):
        if card is None:
            new = draw_card(s, events)
            if new is None:
                break
            market[i] = new
            changed = True
    limit = s.board.rules.face_up_locomotive_limit
    resets = 0
    while limit and market.count(LOCOMOTIVE) >= limit:
        # Could deck and discard (the display included, as it is discarded first) produce a
        # display with fewer locomotives than the limit? If not, stop refreshing.
        showing = [c for c in market if c is not None]
        pool = len(s.deck) + len(s.discard) + len(showing)
        locos = s.deck.count(LOCOMOTIVE) + s.discard.count(LOCOMOTIVE) + showing.count(LOCOMOTIVE)
        size = min(len(market), pool)
        if pool - locos < size - (limit - 1) or resets >= 100:
            break
        s.discard.extend(showing)
        for i in range(len(market)):
            market[i] = None
        for i in range(len(market)):
            new = draw_card(s, events)
            if new is None:
                break
            market[i] = new
        resets += 1
        changed = True
    if changed:
        events.append(Event("market_changed", None, {"market": _market_json(s), "resets": resets}))
