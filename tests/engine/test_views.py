"""What a seat and a spectator see: own hand and tickets, only counts of the others."""

from __future__ import annotations

import json

from engine import DrawBlind, DrawTickets, KeepTickets, event_view, new_game, player_view

from .factory import set_hand, started


def test_a_seat_sees_its_own_hand_and_tickets_and_only_counts_of_others():
    s = started(3)
    set_hand(s, 1, red=2, locomotive=1)
    view = player_view(s, 0)
    assert view["you"]["seat"] == 0
    assert sum(view["you"]["hand"].values()) == sum(s.hands[0])
    assert {t["id"] for t in view["you"]["tickets"]} == {
        s.board.tickets[t].id for t in s.tickets[0]
    }
    other = view["seats"][1]
    assert other["hand_size"] == 3
    assert other["tickets"] == len(s.tickets[1])
    assert "hand" not in other


def test_no_view_holds_the_seed_the_deck_order_or_other_tickets():
    s = started(3, seed=987654321)
    for viewer in (None, 0, 1, 2):
        text = json.dumps(player_view(s, viewer))
        assert "987654321" not in text
        assert '"deck"' not in text and "seed" not in text
        hidden = {
            s.board.tickets[t].id for seat in range(3) if seat != viewer for t in s.tickets[seat]
        } | {s.board.tickets[t].id for t in s.ticket_deck + s.removed_tickets}
        for ticket_id in hidden:
            assert ticket_id not in text, (viewer, ticket_id)


def test_a_spectator_sees_no_hand_at_all():
    view = player_view(started(2), None)
    assert view["you"] is None
    assert all("hand" not in seat for seat in view["seats"])


def test_offers_are_seen_by_their_seat_only():
    s = started(2)
    s = s.apply(0, DrawTickets())
    mine = player_view(s, 0)
    theirs = player_view(s, 1)
    assert len(mine["you"]["offered_tickets"]) == 3
    assert theirs["seats"][0]["tickets_offered"] == 3
    assert theirs["you"]["offered_tickets"] == []


def test_initial_offers_are_secret_and_choices_show_only_counts():
    s = new_game("europe", 2, seed=4)
    offer = [s.board.tickets[t].id for t in s.offers[0]]
    s, events = s.apply_with_events(0, KeepTickets(tuple(offer[:2])))
    kept = events[0]
    assert event_view(kept, 1) == {
        "type": "tickets_kept",
        "seat": 0,
        "kept": 2,
        "returned": 2,
        "initial": True,
    }
    assert set(event_view(kept, 0)["tickets"]) == set(offer[:2])
    assert player_view(s, 1)["pending"] == {"kind": "choose_initial_tickets", "seats": [1]}


def test_a_blind_draw_shows_its_colour_to_the_drawer_only():
    s = started(2)
    s, events = s.apply_with_events(0, DrawBlind())
    drawn = next(e for e in events if e.type == "card_drawn")
    assert "color" in event_view(drawn, 0)
    assert "color" not in event_view(drawn, 1)
    assert "color" not in event_view(drawn, None)


def test_ticket_progress_is_shown_to_the_owner():
    s = started(2)
    view = player_view(s, 0)
    assert all(t["connected"] is False for t in view["you"]["tickets"])


def test_views_made_together_are_the_views_made_one_by_one():
    from engine.views import player_views

    s = started(4, seed=4242)
    s = s.apply(s.current, DrawBlind())
    together = player_views(s, [None, 0, 1, 2, 3])
    for viewer in (None, 0, 1, 2, 3):
        assert json.dumps(together[viewer]) == json.dumps(player_view(s, viewer))
    assert together[0]["you"]["seat"] == 0 and together[3]["you"]["seat"] == 3
    assert together[None]["you"] is None
