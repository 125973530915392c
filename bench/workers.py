"""Worker benchmark: AI reply latency and AI-only games per minute, with one real worker.

    .venv/bin/python bench/workers.py [--broker default|redis] [--moves N] [--games N]

`default` is the embedded setup (SQLite file, kombu's filesystem transport); `redis` uses
REDIS_URL (default redis://127.0.0.1:6379/14, flushed) as the broker. The benchmark and its
worker get a folder of their own, var/bench/workers-BROKER/ (VAR_DIR), so the filesystem
transport's messages stay apart from those of any other service of the checkout. The
database is a fresh SQLite file in that folder, or DATABASE_URL if set. Prints a few
lines, then one JSON object on its last line: latency from a human move's commit to the
AI's next move's commit (p50/p95, ms) and AI-only 2-player games finished per minute.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine.bots import seat_view

ROOT = Path(__file__).resolve().parents[1]


def _configure(broker: str) -> dict[str, str]:
    env = dict(os.environ)
    if broker == "redis":
        env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
    else:
        env.pop("REDIS_URL", None)
    folder = ROOT / "var" / "bench" / f"workers-{broker}"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    env["VAR_DIR"] = str(folder)
    env.pop("SQLITE_PATH", None)
    os.environ.clear()
    os.environ.update(env)
    return env


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--broker", choices=["default", "redis"], default="default")
    p.add_argument("--moves", type=int, default=40, help="human moves to time")
    p.add_argument("--games", type=int, default=6, help="AI-only games to finish")
    args = p.parse_args()
    env = _configure(args.broker)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")
    # One bench user holds every AI-only game of the run.
    os.environ["MAX_BOT_ONLY_GAMES_PER_USER"] = str(args.games)
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction

    call_command("migrate", verbosity=0)
    if args.broker == "redis":
        import redis

        redis.Redis.from_url(env["REDIS_URL"]).flushdb()

    from engine.bots import make_bot
    from games.commands import lobby, play, write
    from games.domain.seats import state_of
    from games.models import Game, Move, MoveCause

    worker = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("celery")),
            "-A",
            "ttr_service",
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "warning",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        users = get_user_model()
        human = users.objects.create_user(f"bench{time.time_ns()}", password="x-long-Passphrase-1")
        game = lobby.game_create(
            human,
            board="europe",
            seats=[lobby.SeatSpec("creator"), lobby.SeatSpec("ai")],
            first_seat=0,
        )
        latencies = []
        bot = make_bot("random", 7)
        deadline = time.monotonic() + 600
        while len(latencies) < args.moves and time.monotonic() < deadline:
            game = Game.objects.get(pk=game.pk)
            if game.status != "active":
                break
            state = state_of(game)
            if 0 not in state.pending.seats:
                time.sleep(0.005)
                continue
            action = bot.choose(seat_view(state, 0))
            with transaction.atomic():
                locked = write.game_lock(game.pk)
                play.move_play_locked(human, locked.pk, action, locked.version)
            committed_at = time.perf_counter()
            last_human = Move.objects.filter(game=game).count()
            # Wait for the AI's reply only when the AI is to move next.
            state = state_of(Game.objects.get(pk=game.pk))
            if 1 not in state.pending.seats:
                continue
            while time.monotonic() < deadline:
                if Move.objects.filter(
                    game=game, number__gt=last_human, cause=MoveCause.AI
                ).exists():
                    latencies.append((time.perf_counter() - committed_at) * 1000)
                    break
                time.sleep(0.002)
        began = time.perf_counter()
        ids = [
            lobby.game_create(human, board="europe", seats=[lobby.SeatSpec("ai")] * 2).pk
            for _ in range(args.games)
        ]
        while Game.objects.filter(pk__in=ids, status="finished").count() < len(ids):
            if time.perf_counter() - began > 900:
                break
            time.sleep(0.2)
        elapsed = time.perf_counter() - began
        finished = Game.objects.filter(pk__in=ids, status="finished").count()
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    ordered = sorted(latencies)
    result = {
        "broker": args.broker,
        "database": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
        "ai_replies_timed": len(latencies),
        "ai_reply_ms_p50": round(statistics.median(ordered), 1) if ordered else None,
        "ai_reply_ms_p95": round(ordered[round(0.95 * (len(ordered) - 1))], 1) if ordered else None,
        "ai_games": finished,
        "ai_games_per_minute": round(finished / elapsed * 60, 2) if elapsed else None,
    }
    print(f"{len(latencies)} AI replies timed; {finished} AI-only games in {elapsed:.1f} s")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
