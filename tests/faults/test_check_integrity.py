"""``manage.py check_integrity``: a sound database passes, every kind of damage is named."""

from __future__ import annotations

from io import StringIO
from itertools import pairwise

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.commands import lobby
from games.models import Game, Move, Seat

from .helpers import human_game, integrity, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    return user("host"), user("guest")


@pytest.fixture
def game(players):
    return human_game(*players, moves=30, turn_time_limit=3600)


def _codes(summary: dict, game_id: int) -> set[str]:
    return {p["code"] for p in summary["problems"] if p["game"] == game_id}


def test_a_clean_database_passes(players, game):
    finished = human_game(*map(user, ("third", "fourth")), moves=2000, seed=7)
    assert finished.status == "finished"
    # A game still waiting for players has nothing to re-play.
    waiting = lobby.game_create(
        players[0], board="europe", seats=[lobby.SeatSpec("creator"), lobby.SeatSpec("open")]
    )
    code, summary = integrity()
    assert code == 0
    assert summary == {"checked": 3, "consistent": 3, "inconsistent": [], "problems": []}
    assert waiting.status == "lobby"


def test_a_game_with_board_options_re_plays_with_them(players):
    # The Big Cities bonus changes the final score, so the replay must use the stored options.
    played = human_game(
        *players, moves=2000, seed=3, board="usa-bigcities", options={"bonus": "both"}
    )
    assert played.status == "finished"
    assert played.options["bonus"] == "both"
    code, summary = integrity(played.pk)
    assert (code, summary["problems"]) == (0, [])


def test_the_text_summary_counts_the_games(game):
    out = StringIO()
    call_command("check_integrity", stdout=out)
    assert out.getvalue().strip() == "Checked 1 game(s): 1 consistent, 0 inconsistent."


def test_a_tampered_state_is_reported_and_exits_non_zero(game):
    state = game.state
    state["current"] = 1 - state["current"]
    Game.objects.filter(pk=game.pk).update(state=state)
    out = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("check_integrity", stdout=out)
    assert failed.value.returncode == 1
    assert f"game {game.pk}: STATE_MISMATCH: differs in current" in out.getvalue()
    assert "1 inconsistent (STATE_MISMATCH 1)" in out.getvalue()


def test_a_deleted_move_is_reported(game):
    Move.objects.filter(game=game, number=12).delete()
    code, summary = integrity()
    assert code == 1
    assert summary["inconsistent"] == [game.pk]
    assert "MOVE_NUMBERS" in _codes(summary, game.pk)
    assert _codes(summary, game.pk) & {"ILLEGAL_MOVE", "STATE_MISMATCH"}


def test_a_deleted_last_move_is_reported(game):
    last = Move.objects.filter(game=game).order_by("-number").first()
    last.delete()
    code, summary = integrity()
    assert code == 1
    assert "STATE_MISMATCH" in _codes(summary, game.pk)


def test_a_reordered_log_is_reported(game):
    moves = list(Move.objects.filter(game=game).order_by("number"))
    # Two neighbouring moves by different seats, after the initial ticket choices.
    a, b = next((m, n) for m, n in pairwise(moves[2:]) if m.seat != n.seat)
    Move.objects.filter(pk=a.pk).update(number=0)
    Move.objects.filter(pk=b.pk).update(number=a.number)
    Move.objects.filter(pk=a.pk).update(number=b.number)
    code, summary = integrity()
    assert code == 1
    assert "ILLEGAL_MOVE" in _codes(summary, game.pk) or "MOVE_VERSIONS" in _codes(summary, game.pk)


def test_a_wrong_status_and_pending_flags_are_reported(game):
    Game.objects.filter(pk=game.pk).update(status="finished")
    Seat.objects.filter(game=game).update(pending=True)
    code, summary = integrity()
    assert code == 1
    assert {"STATUS", "PENDING_SEATS"} <= _codes(summary, game.pk)


def test_a_missing_deadline_is_reported(game):
    Game.objects.filter(pk=game.pk).update(deadline=None)
    code, summary = integrity()
    assert code == 1
    assert _codes(summary, game.pk) == {"DEADLINE"}


def test_a_version_below_the_log_is_reported(game):
    Game.objects.filter(pk=game.pk).update(version=3)
    code, summary = integrity()
    assert _codes(summary, game.pk) == {"VERSION_BEHIND"}
    assert code == 1


def test_one_game_can_be_checked_alone(players, game):
    other = human_game(*map(user, ("third", "fourth")), moves=5)
    Game.objects.filter(pk=game.pk).update(version=1)
    assert integrity(other.pk) == (
        0,
        {"checked": 1, "consistent": 1, "inconsistent": [], "problems": []},
    )
    assert integrity(game.pk)[0] == 1
