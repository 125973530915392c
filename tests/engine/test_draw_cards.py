"""Drawing train cards: two steps, locomotive restrictions, empty deck and market."""

from __future__ import annotations

import pytest

from engine import DrawBlind, DrawFaceUp, DrawTickets, ErrorCode, IllegalActionError
from engine.colors import CARD_INDEX, LOCOMOTIVE
from engine.state import SECOND_CARD, TURN_ACTION

from .factory import empty_deck_into_discard, hand_of, set_hand, set_market, stack_deck, started


def test_a_face_up_card_is_replaced_at_once_and_a_second_card_follows():
    s = started()
    set_hand(s, 0)
    set_market(s, "red", "blue", "green", "white", "black")
    stack_deck(s, "yellow")
    s = s.apply(0, DrawFaceUp(0))
    assert hand_of(s, 0) == {"red": 1}
    assert s.market[0] == CARD_INDEX["yellow"]
    assert s.pending.kind == SECOND_CARD and s.pending.seats == (0,)
    s = s.apply(0, DrawFaceUp(1))
    assert hand_of(s, 0) == {"red": 1, "blue": 1}
    assert s.pending.kind == TURN_ACTION and s.pending.seats == (1,)


def test_a_face_up_locomotive_as_first_card_is_the_whole_draw():
    s = started()
    set_hand(s, 0)
    set_market(s, "locomotive", "blue", "green", "white", "black")
    stack_deck(s, "red")
    s = s.apply(0, DrawFaceUp(0))
    assert hand_of(s, 0) == {"locomotive": 1}
    assert s.pending.seats == (1,)


def test_a_face_up_locomotive_cannot_be_the_second_card():
    s = started()
    set_market(s, "locomotive", "blue", "green", "white", "black")
    stack_deck(s, "red")
    s = s.apply(0, DrawFaceUp(1))
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, DrawFaceUp(0))
    assert err.value.code == ErrorCode.LOCOMOTIVE_NOT_ALLOWED


def test_a_locomotive_just_revealed_as_replacement_cannot_be_the_second_card():
    s = started()
    set_market(s, "red", "blue", "green", "white", "black")
    stack_deck(s, "locomotive")
    s = s.apply(0, DrawFaceUp(0))
    assert s.market[0] == LOCOMOTIVE
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, DrawFaceUp(0))
    assert err.value.code == ErrorCode.LOCOMOTIVE_NOT_ALLOWED


def test_a_blind_locomotive_counts_as_an_ordinary_card():
    s = started()
    set_hand(s, 0)
    stack_deck(s, "locomotive", "red")
    s = s.apply(0, DrawBlind())
    assert hand_of(s, 0) == {"locomotive": 1}
    assert s.pending.kind == SECOND_CARD
    s = s.apply(0, DrawBlind())
    assert hand_of(s, 0) == {"locomotive": 1, "red": 1}


def test_the_second_step_accepts_only_a_card_draw():
    s = started()
    s = s.apply(0, DrawBlind())
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, DrawTickets())
    assert err.value.code == ErrorCode.WRONG_PHASE


def test_the_other_seat_cannot_draw_in_my_turn():
    s = started()
    with pytest.raises(IllegalActionError) as err:
        s.apply(1, DrawBlind())
    assert err.value.code == ErrorCode.NOT_YOUR_TURN


def test_an_empty_deck_is_refilled_from_the_shuffled_discard_pile():
    s = started()
    empty_deck_into_discard(s)
    size = len(s.discard)
    s2, events = s.apply_with_events(0, DrawBlind())
    assert any(e.type == "deck_reshuffled" for e in events)
    assert len(s2.deck) == size - 1 and not s2.discard
    assert s2.card_total() == 110


def test_blind_draws_are_impossible_when_deck_and_discard_are_empty():
    s = started()
    s.discard = []
    s.deck, hidden = [], list(s.deck)
    # Park the deck in seat 1's hand so the cards stay accounted for.
    for card in hidden:
        s.hands[1][card] += 1
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, DrawBlind())
    assert err.value.code == ErrorCode.DECK_EMPTY
    assert s.card_total() == 110


def test_the_turn_ends_after_one_card_when_no_second_draw_exists():
    s = started()
    for card in s.deck + s.discard:
        s.hands[1][card] += 1
    s.deck, s.discard = [], []
    set_market_cards = [2, None, None, None, 8]  # orange and a locomotive face up
    for card in s.market:
        if card is not None:
            s.hands[1][card] += 1
    for card in set_market_cards:
        if card is not None:
            s.hands[1][card] -= 1
    s.market = set_market_cards
    assert s.card_total() == 110
    s = s.apply(0, DrawFaceUp(0))
    assert s.pending.seats == (1,) and s.pending.kind == TURN_ACTION
    assert s.market == [None, None, None, None, 8]


def test_an_empty_face_up_slot_cannot_be_taken():
    s = started()
    for card in s.deck + s.discard:
        s.hands[1][card] += 1
    s.deck, s.discard = [], []
    s.hands[1][s.market[2]] += 1
    s.market[2] = None
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, DrawFaceUp(2))
    assert err.value.code == ErrorCode.EMPTY_SLOT
