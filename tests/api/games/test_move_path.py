"""The path of one move through the service's own code, from the view to the commit.

A move (``POST /games/{id}/actions``) is followed with ``sys.setprofile`` from the moment
its view starts until its transaction commits, and every file of ``games/`` and
``ttr_service/`` a function of which runs is counted: the view, the body's reader, the
command and what it writes with. The engine (a library the command calls once) and the
apps that listen to the move's events are not the move's path and are not counted. The
files are listed in docs/architecture.md ("One move").
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from games.worker import ai

from .conftest import create_game, keep_all_initial

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
COUNTED = (ROOT / "games", ROOT / "ttr_service")
MOST_FILES = 12


def files_entered(request: Any) -> list[str]:
    """The files of ``COUNTED`` entered by ``request()`` from the move's view starting to
    its command returning (its transaction commits right after), in the order entered."""
    entered: list[str] = []
    recording = False

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal recording
        path, name = Path(frame.f_code.co_filename), frame.f_code.co_name
        if event == "call" and name == "post" and path == ROOT / "games" / "http" / "play.py":
            recording = True
        elif event == "return" and name == "move_play_locked":
            recording = False
        if recording and event == "call" and any(path.is_relative_to(c) for c in COUNTED):
            counted = str(path.relative_to(ROOT))
            if counted not in entered:
                entered.append(counted)

    sys.setprofile(profile)
    try:
        request()
    finally:
        sys.setprofile(None)
    return entered


def test_a_move_enters_at_most_twelve_files_before_its_commit(creator) -> None:
    """A turn-ending move against an AI seat (so the AI's turn is queued), sent as the
    README's first game sends one: with If-Match and an Idempotency-Key."""
    game_id = create_game(creator, seats=[{"type": "creator"}, {"type": "ai"}], first_seat=0)["id"]
    ai.ai_turns_play(game_id)  # the AI seat keeps its first tickets
    keep_all_initial(game_id, creator)
    url = f"/api/v1/games/{game_id}/actions"
    tag = creator.get(f"/api/v1/games/{game_id}")["ETag"]
    first = creator.post(url, {"action": {"type": "draw_blind"}}, format="json", HTTP_IF_MATCH=tag)
    answers = []

    def second_card() -> None:
        answers.append(
            creator.post(
                url,
                {"action": {"type": "draw_blind"}},
                format="json",
                HTTP_IF_MATCH=first["ETag"],
                HTTP_IDEMPOTENCY_KEY="second-card",
            )
        )

    entered = files_entered(second_card)
    assert answers[0].status_code == 200, answers[0].content
    assert answers[0].json()["seats"][1]["pending"] is True  # the AI's turn was queued
    assert "games/commands/write.py" in entered  # the path was followed to the write
    assert len(entered) <= MOST_FILES, entered
