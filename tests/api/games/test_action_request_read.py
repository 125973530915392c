"""A move's request body is read in one place: any body either becomes an engine action or
is refused with field errors, never anything else."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from engine import ACTION_TYPES
from games.serializers.actions import action_request_read

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
def test_any_body_is_an_action_or_field_errors(body: dict[str, Any]) -> None:
    try:
        action = action_request_read(body)
    except ValidationError as refused:
        assert refused.detail
    else:
        assert isinstance(action, tuple(ACTION_TYPES.values()))
        assert action.to_json()["type"] == body["action"]["type"]


def test_the_fields_a_client_may_leave_out_take_their_defaults() -> None:
    claim = action_request_read({"action": {"type": "claim_route", "route": "berlin-wien"}})
    assert claim.to_json() == {
        "type": "claim_route",
        "route": "berlin-wien",
        "color": None,
        "locomotives": 0,
    }
