"""State, actions, views and events round-trip through plain JSON exactly."""

from __future__ import annotations

import json

import pytest

from engine import RULES_VERSION, GameState, SetupError, event_view, parse_action, player_view
from engine.bots import RandomBot, seat_view

from .test_legal_actions import sample_positions


def test_every_listed_action_round_trips_through_client_json():
    seen = set()
    for s in sample_positions(4, 8, every=5):
        seat = s.pending.seats[0]
        for action in s.legal_actions(seat):
            data = json.loads(json.dumps(action.to_json()))
            assert parse_action(data, s.board) == action
            seen.add(action.type)
    assert {"draw_face_up", "draw_blind", "claim_route", "keep_tickets"} <= seen


def test_views_and_events_are_plain_json():
    s = next(sample_positions(3, 2, every=1))
    bot = RandomBot(2)
    for _ in range(150):
        seat = s.pending.seats[0]
        s, events = s.apply_with_events(seat, bot.choose(seat_view(s, seat)))
        for viewer in (None, 0, 1, 2):
            view = player_view(s, viewer)
            assert json.loads(json.dumps(view)) == view
            for event in events:
                shown = event_view(event, viewer)
                assert json.loads(json.dumps(shown)) == shown
        if s.is_over:
            break


def test_a_state_from_another_rules_version_is_refused():
    s = next(sample_positions(2, 1, every=1))
    data = json.loads(json.dumps(s.to_json()))
    assert data["rules_version"] == RULES_VERSION
    data["rules_version"] = RULES_VERSION + 1
    with pytest.raises(SetupError):
        GameState.from_json(data)
