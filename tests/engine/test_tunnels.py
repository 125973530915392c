"""Tunnels: reveal three cards, then pay the extra or decline, as a separate step."""

from __future__ import annotations

import pytest

from engine import ClaimRoute, DeclineTunnel, DrawBlind, ErrorCode, IllegalActionError, PayTunnel
from engine.state import TUNNEL_PAYMENT

from .factory import hand_of, set_hand, stack_deck, started

# Venezia-Zurich: green tunnel of length 2. Paris-Zurich: gray tunnel of length 3.


def test_play_two_red_reveal_one_red_asks_one_more_red_or_locomotive():
    s = started()
    set_hand(s, 0, red=3, locomotive=1)
    stack_deck(s, "red", "blue", "white")
    s = s.apply(0, ClaimRoute("barcelona-pamplona", "red", 0))
    assert s.pending.kind == TUNNEL_PAYMENT
    assert s.tunnel.extra == 1
    assert s.tunnel.revealed == [7, 1, 3]
    assert set(s.legal_actions(0)) == {PayTunnel(0), PayTunnel(1), DeclineTunnel()}
    s = s.apply(0, PayTunnel(0))
    assert hand_of(s, 0) == {"locomotive": 1}
    assert s.route_owner[s.board.route_by_id["barcelona-pamplona"].index] == 0
    assert s.card_total() == 110


def test_play_two_green_reveal_a_locomotive_asks_one_more_green():
    s = started()
    set_hand(s, 0, green=3)
    stack_deck(s, "locomotive", "red", "blue")
    s = s.apply(0, ClaimRoute("venezia-zurich", "green", 0))
    assert s.tunnel.extra == 1
    s = s.apply(0, PayTunnel(0))
    assert hand_of(s, 0) == {}
    assert s.trains[0] == 43


def test_play_two_locomotives_reveal_a_locomotive_asks_one_more_locomotive():
    s = started()
    set_hand(s, 0, locomotive=3, green=2)
    stack_deck(s, "locomotive", "green", "green")
    s = s.apply(0, ClaimRoute("venezia-zurich", None, 2))
    # Paid with locomotives only: the revealed greens do not count.
    assert s.tunnel.extra == 1
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, PayTunnel(0))
    assert err.value.code == ErrorCode.WRONG_CARD_COUNT
    s = s.apply(0, PayTunnel(1))
    assert hand_of(s, 0) == {"green": 2}


def test_no_matching_reveal_claims_the_tunnel_without_a_second_step():
    s = started()
    set_hand(s, 0, green=2)
    stack_deck(s, "red", "blue", "white")
    s, events = s.apply_with_events(0, ClaimRoute("venezia-zurich", "green", 0))
    assert s.pending.kind != TUNNEL_PAYMENT
    assert s.route_owner[s.board.route_by_id["venezia-zurich"].index] == 0
    assert [e.type for e in events][:2] == ["tunnel_revealed", "route_claimed"]
    assert s.discard.count(7) >= 1  # the revealed cards went to the discard pile


def test_declining_returns_the_laid_cards_and_ends_the_turn():
    s = started()
    set_hand(s, 0, green=2)
    stack_deck(s, "green", "green", "white")
    discard_before = len(s.discard)
    s = s.apply(0, ClaimRoute("venezia-zurich", "green", 0))
    assert s.tunnel.extra == 2
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, PayTunnel(0))
    assert err.value.code == ErrorCode.INSUFFICIENT_CARDS
    s = s.apply(0, DeclineTunnel())
    assert hand_of(s, 0) == {"green": 2}
    assert s.route_owner[s.board.route_by_id["venezia-zurich"].index] == -1
    assert len(s.discard) == discard_before + 3
    assert s.pending.seats == (1,)
    assert s.trains[0] == 45


def test_the_extra_may_mix_colour_and_locomotives():
    s = started()
    set_hand(s, 0, green=3, locomotive=1)
    stack_deck(s, "green", "locomotive", "white")
    s = s.apply(0, ClaimRoute("venezia-zurich", "green", 0))
    assert s.tunnel.extra == 2
    options = s.legal_actions(0)
    assert PayTunnel(1) in options and DeclineTunnel() in options
    assert PayTunnel(0) not in options  # only one green left
    s = s.apply(0, PayTunnel(1))
    assert hand_of(s, 0) == {}


def test_the_payment_step_accepts_nothing_else():
    s = started()
    set_hand(s, 0, green=3)
    stack_deck(s, "green", "red", "white")
    s = s.apply(0, ClaimRoute("venezia-zurich", "green", 0))
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, DrawBlind())
    assert err.value.code == ErrorCode.WRONG_PHASE


def test_with_fewer_than_three_cards_left_only_those_are_revealed():
    s = started()
    set_hand(s, 0, green=2)
    stack_deck(s, "red", "blue")
    rest = s.deck[:-2] + s.discard
    s.deck = s.deck[-2:]
    s.discard = []
    for card in rest:
        s.hands[1][card] += 1
    s, events = s.apply_with_events(0, ClaimRoute("venezia-zurich", "green", 0))
    revealed = next(e for e in events if e.type == "tunnel_revealed").public["revealed"]
    assert sorted(revealed) == ["blue", "red"]
    assert s.route_owner[s.board.route_by_id["venezia-zurich"].index] == 0
    assert sorted(s.discard) == [1, 4, 4, 7]
    assert s.card_total() == 110


def test_the_reveal_reshuffles_the_discard_when_the_deck_runs_out():
    s = started()
    set_hand(s, 0, green=2)
    s.discard = s.deck[1:]
    s.deck = s.deck[:1]
    s2, events = s.apply_with_events(0, ClaimRoute("venezia-zurich", "green", 0))
    assert any(e.type == "deck_reshuffled" for e in events)
    revealed = next(e for e in events if e.type == "tunnel_revealed").public["revealed"]
    assert len(revealed) == 3
    assert s2.card_total() == 110
