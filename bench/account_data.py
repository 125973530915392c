"""Benchmark: the data export and the erasure of an account that played many games.

Makes two players and ``--games`` finished two-player games between them (played to the
end by random bots, stored as the service stores them), then times building the first
player's export archive (``privacy.archive.archive_of``, what the worker does) and
erasing the account (``privacy.erasure.account_erase``), and measures the archive's JSON.
Runs on the embedded default (SQLite, the filesystem broker) in a temporary ``VAR_DIR``
of its own. Prints a few lines of detail, then one JSON object on the last line.

    .venv/bin/python bench/account_data.py [--games N]

Times are wall-clock milliseconds on one core; run on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import tempfile
import time

for name in ("DATABASE_URL", "REDIS_URL"):
    os.environ.pop(name, None)
os.environ["VAR_DIR"] = tempfile.mkdtemp(prefix="ttr-bench-account-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from engine.bots import make_bot, seat_view  # noqa: E402
from games.commands import lobby  # noqa: E402
from games.domain.seats import state_of  # noqa: E402
from games.models import Game, GameStatus, Move  # noqa: E402
from privacy.archive import archive_of  # noqa: E402
from privacy.erasure import account_erase  # noqa: E402


def finished(creator: object, opponent: object) -> int:
    """A two-player game of the two, played to the end by random bots."""
    game = lobby.game_create(
        creator,  # type: ignore[arg-type]
        board="europe",
        seats=[lobby.SeatSpec("creator"), lobby.SeatSpec("open")],
        first_seat=0,
    )
    lobby.game_join(opponent, game.pk)  # type: ignore[arg-type]
    game = Game.objects.get(pk=game.pk)
    state, bot, moves = state_of(game), make_bot("random", game.seed), []
    while not state.is_over:
        seat = state.pending.seats[0]
        action = bot.choose(seat_view(state, seat))
        state, events = state.apply_with_events(seat, action)
        moves.append(
            Move(
                game=game,
                number=state.action_count,
                seat=seat,
                action=action.to_json(),
                events=[e.to_json() for e in events],
                version=game.version + len(moves) + 1,
            )
        )
    Move.objects.bulk_create(moves)
    Game.objects.filter(pk=game.pk).update(
        state=state.to_json(),
        status=GameStatus.FINISHED,
        result=state.result,
        finished_at=timezone.now(),
        version=game.version + len(moves),
        deadline=None,
    )
    game.seats.update(pending=False)
    return len(moves)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    alice = users.create_user("alice", password="a-long-password-1", email="a@ex.org")
    bob = users.create_user("bob", password="a-long-password-1")
    moves = sum(finished(alice, bob) for _ in range(args.games))

    began = time.perf_counter()
    archive = archive_of(alice, timezone.now())
    archive_ms = (time.perf_counter() - began) * 1e3
    text = json.dumps(archive, separators=(",", ":")).encode()
    size = len(text)
    began = time.perf_counter()
    packed = len(gzip.compress(text, compresslevel=6))
    gzip_ms = (time.perf_counter() - began) * 1e3

    began = time.perf_counter()
    account_erase(users.get(pk=alice.pk))
    erase_ms = (time.perf_counter() - began) * 1e3

    print(f"{args.games} games, {moves} moves in all ({moves // max(1, args.games)} a game)")
    print(f"archive: {size / 1024:.0f} KiB in {archive_ms:.0f} ms, gzip {packed / 1024:.0f} KiB")
    print(f"erasure: {erase_ms:.0f} ms")
    figures = {
        "games": args.games,
        "moves": moves,
        "archive_bytes": size,
        "archive_bytes_per_game": size // max(1, args.games),
        "archive_ms": round(archive_ms, 1),
        "archive_gzip_bytes": packed,
        "gzip_ms": round(gzip_ms, 1),
        "erase_ms": round(erase_ms, 1),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
