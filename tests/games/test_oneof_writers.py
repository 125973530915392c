"""Actions and events are written field by field from their shape's declared fields, as the
shape's serializer would write them: the same JSON for every value seen in whole games."""

from __future__ import annotations

import json
from typing import Any

from engine import Event, action_view, event_view, new_game
from engine.bots import make_bot, seat_view
from games.serializers.actions import ActionField, LoggedActionField
from games.serializers.events import EventField
from games.serializers.oneof import OneOf


def _same(field: OneOf, value: dict[str, Any]) -> None:
    written = field.to_representation(value)
    by_serializer = field.variants[value["type"]]().to_representation(value)
    assert json.dumps(written) == json.dumps(by_serializer), value


def test_every_action_and_event_of_whole_games_is_written_as_its_serializer_writes_it() -> None:
    actions, logged, events = ActionField(), LoggedActionField(), EventField()
    seen: set[str] = set()
    for seed in range(3):
        state = new_game("europe", 3, seed)
        bots = [make_bot("random", seed * 10 + i) for i in range(3)]
        while not state.is_over:
            seat = state.pending.seats[0]
            for legal in state.legal_actions(seat):
                _same(actions, legal.to_json())
            action = bots[seat].choose(seat_view(state, seat))
            state, happened = state.apply_with_events(seat, action)
            for viewer in (None, 0, 1, 2):
                shown = action_view(action.to_json(), seat, viewer)
                if shown is not None:
                    _same(logged, shown)
            for event in happened:
                stored = Event.from_json(event.to_json())
                for viewer in (None, 0, 1, 2):
                    _same(events, event_view(stored, viewer))
                seen.add(event.type)
    assert {"card_drawn", "route_claimed", "tickets_kept", "game_over"} <= seen
