"""The easy bot plays weakly but plausibly: it does not hoard cards beside open routes."""

from __future__ import annotations

from engine import new_game
from engine.actions import DrawBlind, DrawFaceUp
from engine.bots import make_bot, seat_view
from engine.bots.easy import EasyBot
from engine.bots.knowledge import know
from engine.bots.tactics import color_needs
from engine.legal import claimable_routes
from engine.state import TURN_ACTION


def test_with_a_full_hand_easy_claims_instead_of_drawing():
    """At every turn where easy holds ``full_hand`` cards or more and its spare cards pay
    for a route that leaves the trains its tickets need, it does not draw cards; and no
    hand passes 24 cards."""
    checked = 0
    largest = 0
    for seed in range(8):
        bots = [make_bot("easy", seed * 7 + i) for i in range(4)]
        s = new_game("europe", 4, seed)
        while not s.is_over:
            seat = s.pending.seats[0]
            action = bots[seat].choose(seat_view(s, seat))
            if s.pending.kind == TURN_ACTION:
                held = sum(s.hands[seat])
                largest = max(largest, held)
                claimable = set(claimable_routes(s, seat))
                k = know(s, seat)
                need = color_needs(k, EasyBot(0).path_routes(k))
                spare = EasyBot(0).spare_claims(k, claimable, need)
                if held >= EasyBot.full_hand and spare:
                    assert not isinstance(action, DrawBlind | DrawFaceUp), (seed, held)
                    checked += 1
            s = s.apply(seat, action)
    assert checked > 20
    assert largest <= 24
