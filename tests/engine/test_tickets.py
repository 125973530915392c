"""Drawing destination tickets during play: three (or fewer), keep at least one."""

from __future__ import annotations

import pytest

from engine import DrawTickets, ErrorCode, IllegalActionError, KeepTickets
from engine.state import KEEP_TICKETS

from .factory import started


def _ids(s, indices):
    return [s.board.tickets[t].id for t in indices]


def test_drawing_offers_the_top_three_and_keeping_is_a_separate_step():
    s = started()
    top = _ids(s, s.ticket_deck[-3:][::-1])
    s = s.apply(0, DrawTickets())
    assert s.pending.kind == KEEP_TICKETS and s.pending.seats == (0,)
    assert _ids(s, s.offers[0]) == top
    held = len(s.tickets[0])
    s = s.apply(0, KeepTickets((top[1],)))
    assert len(s.tickets[0]) == held + 1
    assert s.pending.seats == (1,)


def test_tickets_not_kept_go_to_the_bottom_of_the_deck():
    s = started()
    s = s.apply(0, DrawTickets())
    offer = _ids(s, s.offers[0])
    s = s.apply(0, KeepTickets((offer[0],)))
    assert set(_ids(s, s.ticket_deck[:2])) == {offer[1], offer[2]}
    # The bottom is drawn last: the next draw does not see them.
    assert not set(_ids(s, s.ticket_deck[-3:])) & {offer[1], offer[2]}


def test_keeping_none_is_refused():
    s = started()
    s = s.apply(0, DrawTickets())
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, KeepTickets(()))
    assert err.value.code == ErrorCode.MUST_KEEP_TICKETS


def test_only_offered_tickets_can_be_kept():
    s = started()
    s = s.apply(0, DrawTickets())
    other = _ids(s, s.ticket_deck[:1])
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, KeepTickets(tuple(other)))
    assert err.value.code == ErrorCode.TICKET_NOT_OFFERED


def test_fewer_than_three_left_offers_those_and_none_left_is_illegal():
    s = started()
    s.removed_tickets.extend(s.ticket_deck[:-2])
    s.ticket_deck = s.ticket_deck[-2:]
    s = s.apply(0, DrawTickets())
    assert len(s.offers[0]) == 2
    s = s.apply(0, KeepTickets(tuple(_ids(s, s.offers[0]))))
    assert not s.ticket_deck
    with pytest.raises(IllegalActionError) as err:
        s.apply(1, DrawTickets())
    assert err.value.code == ErrorCode.NO_TICKETS_LEFT
    assert s.ticket_total() == 46


def test_keep_choices_list_every_subset_of_at_least_one():
    s = started()
    s = s.apply(0, DrawTickets())
    choices = s.legal_actions(0)
    assert len(choices) == 7
    assert all(isinstance(c, KeepTickets) and 1 <= len(c.tickets) <= 3 for c in choices)
