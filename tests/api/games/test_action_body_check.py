"""The quick check of a move's body agrees with the serializer it stands in for."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ACTION_TYPES
from games.serializers import ActionRequestSerializer, plainly_valid

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.floats(allow_nan=False),
    st.text(max_size=6),
    st.sampled_from(["", " ", "3", "red", "a\x00b", "\ud83d", "berlin-wien-3", *ACTION_TYPES]),
)
_values = st.one_of(
    _scalars,
    st.lists(_scalars, max_size=3),
    st.dictionaries(st.text(max_size=3), _scalars, max_size=2),
)
_actions = st.dictionaries(
    st.sampled_from(["type", "tickets", "slot", "route", "city", "color", "locomotives", "x"]),
    _values,
    max_size=5,
)
_bodies = st.dictionaries(
    st.sampled_from(["version", "action", "extra"]), st.one_of(_values, _actions), max_size=3
)


@settings(max_examples=600, deadline=None)
@given(_bodies)
def test_what_the_quick_check_lets_through_the_serializer_accepts(body: dict[str, Any]) -> None:
    if plainly_valid(body):
        assert ActionRequestSerializer(data=body).is_valid(), body


def test_the_bodies_clients_send_take_the_quick_path() -> None:
    sent = [
        {"version": 4, "action": {"type": "draw_blind"}},
        {"action": {"type": "draw_face_up", "slot": 2}},
        {
            "version": 9,
            "action": {"type": "claim_route", "route": "a-b-2", "color": "red", "locomotives": 1},
        },
        {
            "version": 9,
            "action": {"type": "claim_route", "route": "a-b-2", "color": None, "locomotives": 2},
        },
        {"version": 3, "action": {"type": "keep_tickets", "tickets": ["berlin-roma"]}},
        {
            "version": 5,
            "action": {"type": "build_station", "city": "Wien", "color": "blue", "locomotives": 0},
        },
    ]
    for body in sent:
        assert plainly_valid(body), body
        assert ActionRequestSerializer(data=body).is_valid(), body


def test_odd_bodies_go_to_the_serializer() -> None:
    for body in (
        {"version": "4", "action": {"type": "draw_blind"}},
        {"version": True, "action": {"type": "draw_blind"}},
        {"action": {"type": ["draw_blind"]}},
        {"action": {"type": "fly"}},
        {"action": {"type": "claim_route", "route": " "}},
        {"action": {"type": "claim_route", "route": "paris\x00wien"}},
        {"action": {"type": "build_station", "city": "\udc00"}},
        {"action": {"type": "draw_face_up", "slot": False}},
        {"action": {"type": "keep_tickets", "tickets": "berlin-roma"}},
        {"action": "draw_blind"},
    ):
        assert not plainly_valid(body), body
