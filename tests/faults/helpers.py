"""Games made through the real services, for the integrity and fault tests."""

from __future__ import annotations

import json
import random
from io import StringIO

import httpx
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction

from accounts.services import token_issue
from games.commands import lobby, play, write
from games.domain.seats import state_of
from games.models import Game
from tests.processes import WebServer

PASSWORD = "a-long-Passphrase-42"


def user(name: str):
    return get_user_model().objects.create_user(name, password=PASSWORD)


def client_for(web: WebServer, person) -> httpx.Client:
    """An HTTP client of ``web``'s API, signed in as ``person`` with a new token."""
    _, key = token_issue(person, name="process-test")
    return httpx.Client(
        base_url=f"{web.url}/api/v1", headers={"Authorization": f"Token {key}"}, timeout=30
    )


def human_game(host, guest, *, moves: int, seed: int = 1, board: str = "europe", **options) -> Game:
    """A started 2-player game of two people, then ``moves`` random legal moves."""
    game = lobby.game_create(
        host,
        board=board,
        seats=[lobby.SeatSpec("creator"), lobby.SeatSpec("open")],
        first_seat=0,
        **options,
    )
    lobby.game_join(guest, game.pk)
    play_random(game.pk, {0: host, 1: guest}, moves, random.Random(seed))
    return Game.objects.get(pk=game.pk)


def play_random(game_id: int, players: dict, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        with transaction.atomic():
            game = write.game_lock(game_id)
            if game.status != "active":
                return
            state = state_of(game)
            seat = state.pending.seats[0]
            action = rng.choice(state.legal_actions(seat))
            play.move_play_locked(players[seat], game.pk, action, game.version)


def integrity(*game_ids: int) -> tuple[int, dict]:
    """Run ``manage.py check_integrity --json``: its exit code and its JSON summary."""
    args = ["--json", *[f"--game={g}" for g in game_ids]]
    out = StringIO()
    try:
        call_command("check_integrity", *args, stdout=out)
        code = 0
    except CommandError as exc:
        code = exc.returncode
    return code, json.loads(out.getvalue())
