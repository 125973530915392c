"""The face-up display: the three-locomotive rule and its no-endless-loop limit."""

from __future__ import annotations

from engine import DrawFaceUp
from engine.cards import refresh_market
from engine.colors import LOCOMOTIVE

from .factory import set_market, stack_deck, started


def test_three_face_up_locomotives_replace_the_whole_display():
    s = started()
    set_market(s, "locomotive", "locomotive", "red", "blue", None)
    stack_deck(s, "locomotive", "green", "white", "black", "yellow", "orange")
    events = []
    refresh_market(s, events)
    # The empty slot took a locomotive (three showing), so all five went to the discard
    # and five new cards were turned up.
    assert s.market.count(LOCOMOTIVE) < 3
    assert s.discard.count(LOCOMOTIVE) == 3
    assert len(s.discard) == 5
    assert [e.type for e in events if e.type == "market_changed"] == ["market_changed"]
    assert events[-1].public["resets"] == 1
    assert s.card_total() == 110


def test_the_rule_repeats_until_fewer_than_three_locomotives_show():
    s = started()
    set_market(s, "locomotive", "locomotive", "red", "blue", None)
    stack_deck(s, "locomotive", "locomotive", "locomotive", "locomotive", "red", "blue", "green")
    events = []
    refresh_market(s, events)
    assert s.market.count(LOCOMOTIVE) < 3
    assert events[-1].public["resets"] >= 2
    assert s.card_total() == 110


def test_a_replacement_locomotive_triggers_the_rule_mid_turn():
    s = started()
    set_market(s, "locomotive", "locomotive", "red", "blue", "green")
    stack_deck(s, "locomotive", "white", "black", "yellow", "orange", "purple")
    s = s.apply(0, DrawFaceUp(2))
    assert s.market.count(LOCOMOTIVE) < 3
    assert s.discard.count(LOCOMOTIVE) == 3


def test_it_stops_refreshing_when_no_display_with_fewer_locomotives_is_possible():
    s = started()
    # Everything outside the hands is locomotives: no refresh can ever help.
    locos = [c for c in s.deck + s.discard + s.market if c == LOCOMOTIVE]
    others = [c for c in s.deck + s.discard + s.market if c is not None and c != LOCOMOTIVE]
    for card in others:
        s.hands[1][card] += 1
    s.deck, s.discard = locos[5:], []
    s.market = locos[:5]
    events = []
    refresh_market(s, events)
    assert s.market.count(LOCOMOTIVE) == 5
    assert not events
    assert s.card_total() == 110


def test_a_refresh_with_a_small_pool_keeps_the_display_it_can_get():
    s = started()
    # Only 4 cards outside the hands: 3 locomotives and 1 red. Any display of 4 cards
    # holds 3 locomotives, so the rule cannot be satisfied and must not loop.
    pool = s.deck + s.discard + [c for c in s.market if c is not None]
    keep = [LOCOMOTIVE, LOCOMOTIVE, LOCOMOTIVE, 7]
    for card in keep:
        pool.remove(card)
    for card in pool:
        s.hands[1][card] += 1
    s.deck, s.discard = [], []
    s.market = [LOCOMOTIVE, LOCOMOTIVE, LOCOMOTIVE, 7, None]
    refresh_market(s, [])
    assert sorted(c for c in s.market if c is not None) == [7, 8, 8, 8]
    assert s.card_total() == 110


def test_empty_slots_fill_when_cards_come_back_to_the_discard():
    s = started()
    set_market(s, "red", "blue", "green", "white", None)
    for card in s.deck:
        s.hands[1][card] += 1
    s.deck = []
    s.discard = [2]
    refresh_market(s, [])
    assert s.market[4] == 2 and not s.discard
