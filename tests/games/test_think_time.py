"""The think time a level is given comes from the settings (``AI_THINK_MS_HARD``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import GameState, new_game
from engine.bots import make_bot, seat_view
from engine.bots.hard import HardPlanner
from games.domain import bots


def late_positions() -> list[GameState]:
    """Turns of a medium-bot game once a player is down to 8 trains, where hard's
    look-ahead weighs every candidate."""
    players = [make_bot("medium", 40 + i) for i in range(4)]
    s = new_game("europe", 4, 40)
    out = []
    while not s.is_over:
        seat = s.pending.seats[0]
        if s.pending.kind == "turn_action" and min(s.trains) <= 8:
            out.append(s)
        s = s.apply(seat, players[seat].choose(seat_view(s, seat)))
    return out


@pytest.mark.look_ahead
def test_the_hard_levels_think_time_is_the_setting(settings: Any) -> None:
    positions = late_positions()
    assert len(positions) >= 8

    def planner(s: GameState) -> Any:
        seat = s.pending.seats[0]
        return HardPlanner(11 ^ (s.action_count + 1)).choose(seat_view(s, seat))

    settings.AI_THINK_SECONDS = {"hard": 0}
    assert all(bots.think("hard", 11, s, s.pending.seats[0]) == planner(s) for s in positions)
    settings.AI_THINK_SECONDS = {"hard": 1.0}
    searched = [bots.think("hard", 11, s, s.pending.seats[0]) for s in positions]
    assert any(move != planner(s) for move, s in zip(searched, positions, strict=True))
