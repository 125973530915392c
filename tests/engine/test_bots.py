"""The AI levels: legal in every phase, games end, and decisions ignore hidden data.

Correctness only: strength and speed are measured by ``bench/ai.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import GameState, cli, new_game
from engine.bots import BOTS, make_bot
from engine.state import (
    CHOOSE_INITIAL_TICKETS,
    KEEP_TICKETS,
    SECOND_CARD,
    TUNNEL_PAYMENT,
    TURN_ACTION,
)

from .invariants import bot_decisions_ignoring_hidden, check_counts

ROOT = Path(__file__).resolve().parents[2]
LEVELS = ("easy", "medium", "hard")
MAX_ACTIONS = 3000


def lineup(players: int, seed: int) -> list[str]:
    """Mixed bots: every level (and random) takes turns at every seat."""
    names = [*LEVELS, "random"]
    return [names[(seed + i) % len(names)] for i in range(players)]


def play(players: int, seed: int, names: list[str]) -> tuple[GameState, set[str]]:
    """A whole game, checking each action before it is applied; the phases seen."""
    bots = [make_bot(names[i], seed * 7 + i) for i in range(players)]
    s = new_game("europe", players, seed)
    phases: set[str] = set()
    for _ in range(MAX_ACTIONS):
        if s.is_over:
            return s, phases
        seat = s.pending.seats[0]
        kind = s.pending.kind
        assert kind is not None
        action = bots[seat].choose(s, seat)
        assert s.is_legal(seat, action), (names[seat], kind, action)
        phases.add(f"{names[seat]}:{kind}")
        s = s.apply(seat, action)
    raise AssertionError("game did not end")


def test_levels_are_registered():
    assert {"random", "easy", "medium", "hard"} <= set(BOTS)
    for name in BOTS:
        assert make_bot(name, 1).name == name


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mixed_games_are_legal_and_end(players):
    phases: set[str] = set()
    for game in range(10):
        seed = 1000 * players + game
        s, seen = play(players, seed, lineup(players, game))
        phases |= seen
        check_counts(s)
        assert s.result is not None
    for level in LEVELS:
        for kind in (CHOOSE_INITIAL_TICKETS, TURN_ACTION, SECOND_CARD, KEEP_TICKETS):
            assert f"{level}:{kind}" in phases, (level, kind)


def test_every_level_settles_tunnels():
    seen: set[str] = set()
    for game in range(12):
        names = [LEVELS[game % 3]] * 4
        _, phases = play(4, 500 + game, names)
        seen |= {p.split(":")[0] for p in phases if p.endswith(TUNNEL_PAYMENT)}
        if seen >= set(LEVELS):
            break
    assert seen >= set(LEVELS)


@pytest.mark.parametrize("level", LEVELS)
def test_same_game_same_decisions(level):
    """Deterministic given the seed: two runs of one game log the same actions."""

    def log(seed: int) -> list[object]:
        bots = [make_bot(level, 42 + i) for i in range(3)]
        s = new_game("europe", 3, seed)
        out: list[object] = []
        while not s.is_over and len(out) < 120:
            seat = s.pending.seats[0]
            action = bots[seat].choose(s, seat)
            out.append(action)
            s = s.apply(seat, action)
        return out

    assert log(9) == log(9)


def positions(players: int, seed: int, every: int) -> list[GameState]:
    """States met along one mixed game, one in ``every``, in all phases."""
    names = lineup(players, seed)
    bots = [make_bot(names[i], seed + i) for i in range(players)]
    s = new_game("europe", players, seed)
    out = []
    n = 0
    while not s.is_over:
        if n % every == 0 or s.pending.kind in (TUNNEL_PAYMENT, KEEP_TICKETS):
            out.append(s)
        seat = s.pending.seats[0]
        s = s.apply(seat, bots[seat].choose(s, seat))
        n += 1
    return out


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 4, 5])
def test_decisions_ignore_hidden_data(level, players):
    """Changing only what the deciding seat cannot see never changes its action."""
    states = positions(players, 70 + players, every=9)
    assert bot_decisions_ignoring_hidden(level, states) > 20


def test_simulate_command_with_every_level(capsys):
    """In this process, so the hard bot plays without its look-ahead, as in the other tests
    here (``test_cli`` runs ``python -m engine`` itself)."""
    assert cli.main(["simulate", "--bot", "hard,medium,easy,random", "--games", "1"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["bots"] == ["hard", "medium", "easy", "random"]
    assert summary["invariant_violations"] == 0


@pytest.mark.slow
def test_simulate_command_with_every_level_as_it_ships():
    """``python -m engine`` in a process of its own: the hard bot searches at its full budget
    (a minute or more)."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "simulate",
            "--bot",
            "hard,medium,easy,random",
            "--games",
            "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert '"invariant_violations": 0' in out.stdout.strip().splitlines()[-1]


def test_tunnel_risk_is_a_probability():
    """The chance a tunnel's reveal outruns the hand: none with 3 spare, falls with spare."""
    from engine.bots.knowledge import know
    from engine.bots.tactics import tunnel_risk

    s = new_game("europe", 4, 3)
    k = know(s, 0)
    for color in range(9):
        risks = [tunnel_risk(k, color, spare) for spare in range(4)]
        assert all(0.0 <= r <= 1.0 for r in risks)
        assert risks == sorted(risks, reverse=True)
        assert risks[3] == 0.0
