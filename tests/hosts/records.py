"""What the bed's tests read from the data host's database: plain SQL over a connection
of its own for each question (the test process has no Django database; the data host
may be restarting). ``check_integrity`` runs as the operator would run it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from typing import Any

import psycopg

from tests.processes import ROOT
from tests.remote_play import turns_given


def rows(database_url: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(database_url, connect_timeout=5) as db:
        return list(db.execute(query, params).fetchall())


def progress(database_url: str, game_ids: list[int]) -> dict[int, tuple[str, int]]:
    """Each game's status and number of moves."""
    found = rows(
        database_url,
        "SELECT g.id, g.status, (SELECT count(*) FROM games_move m WHERE m.game_id = g.id)"
        " FROM games_game g WHERE g.id = ANY(%s)",
        game_ids,
    )
    return {int(g): (str(status), int(moves)) for g, status, moves in found}


def move_times(database_url: str, game_id: int) -> dict[int, float]:
    """When each move of a game was stored, by the game version it made (Unix time; the
    data host shares this machine's clock)."""
    found = rows(
        database_url,
        "SELECT version, extract(epoch FROM created_at) FROM games_move WHERE game_id = %s",
        game_id,
    )
    return {int(version): float(at) for version, at in found}


def in_transaction(database_url: str, address: str) -> bool:
    """Whether a connection from ``address`` is in the middle of a transaction."""
    found = rows(
        database_url,
        "SELECT count(*) FROM pg_stat_activity WHERE client_addr = %s::inet"
        " AND xact_start IS NOT NULL AND state <> 'idle'",
        address,
    )
    return bool(found[0][0])


def integrity(env: dict[str, str], game_ids: list[int]) -> dict[str, Any]:
    """``manage.py check_integrity --json`` on ``game_ids``; its summary and exit code."""
    command = [sys.executable, "manage.py", "check_integrity", "--json"]
    command += [f"--game={g}" for g in game_ids]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    report: dict[str, Any] = json.loads(done.stdout)
    report["exit"] = done.returncode
    return report


def once_each(database_url: str, seats: dict[int, tuple[int, int]]) -> list[str]:
    """What happened other than once for the people ``seats`` ({user: (game, seat)}): the
    game's result and ``RatedGame``, the person's statistics, rating changes (none: the AI
    games are not rated), ``game_started`` and ``game_over`` once each, ``your_turn`` once
    per turn given, one webhook delivery per ``game_started``/``game_over``, delivered."""
    problems = []
    for user, (game, seat) in seats.items():
        ((status, result),) = rows(
            database_url, "SELECT status, result FROM games_game WHERE id = %s", game
        )
        if status != "finished" or not result:
            problems.append(f"game {game}: {status}")
            continue
        rated = rows(database_url, "SELECT rated FROM ratings_ratedgame WHERE game_id = %s", game)
        if rated != [(False,)]:
            problems.append(f"game {game}: RatedGame rows {rated}")
        changes = rows(database_url, "SELECT 1 FROM ratings_ratingchange WHERE game_id = %s", game)
        if changes:
            problems.append(f"game {game}: {len(changes)} rating changes")
        total = {line["seat"]: line["total"] for line in result["players"]}[seat]
        stats = rows(
            database_url,
            "SELECT games, total_score FROM ratings_playerstats WHERE user_id = %s",
            user,
        )
        if stats != [(1, total)]:
            problems.append(f"user {user}: statistics {stats}, score {total}")
        kinds = Counter(
            kind
            for (kind,) in rows(
                database_url,
                "SELECT kind FROM notifications_notification WHERE user_id = %s AND game_id = %s",
                user,
                game,
            )
        )
        moves = rows(
            database_url,
            "SELECT seat, action FROM games_move WHERE game_id = %s ORDER BY number",
            game,
        )
        expected = Counter(game_started=1, game_over=1, your_turn=turns_given(moves, seat))
        if kinds != expected:
            problems.append(f"user {user}: notifications {dict(kinds)}, expected {dict(expected)}")
    return problems


def deliveries(database_url: str, user_ids: list[int]) -> list[tuple[int, str, str]]:
    """The webhook deliveries of these people: (notification, status, message id)."""
    found = rows(
        database_url,
        "SELECT d.notification_id, d.status, d.message_id FROM notifications_delivery d"
        " JOIN notifications_notification n ON n.id = d.notification_id"
        " WHERE n.user_id = ANY(%s)",
        user_ids,
    )
    return [(int(n), str(s), str(m)) for n, s, m in found]
