"""The AI levels: legal in every phase, games end, and decisions ignore hidden data.

Correctness only: strength and speed are measured by ``bench/ai.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import GameState, cli, new_game
from engine.bots import BOTS, hard, make_bot, seat_view
from engine.bots.hard import HardBot
from engine.bots.knowledge import Knowledge
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
        action = bots[seat].choose(seat_view(s, seat))
        assert s.is_legal(seat, action), (names[seat], kind, action)
        phases.add(f"{names[seat]}:{kind}")
        s = s.apply(seat, action)
    raise AssertionError("game did not end")


def test_levels_are_registered():
    assert set(BOTS) == {"random", "easy", "medium", "hard"}
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


def check_final_scores(s: GameState) -> None:
    """The score sheet adds up, matches the board as the game left it, and ranks by total."""
    assert s.result is not None
    board, rules = s.board, s.board.rules
    sheet = s.result["players"]
    assert [p["seat"] for p in sheet] == list(range(s.n_players))
    longest = s.result["longest_path"]
    for seat, p in enumerate(sheet):
        owned = [r.id for r in board.routes if s.route_owner[r.index] == seat]
        assert sorted(p["routes"]) == sorted(owned)
        assert p["route_points"] == s.route_points[seat]
        assert p["trains_used"] == rules.trains_per_player - s.trains[seat]
        held = [board.tickets[i].id for i in s.tickets[seat]]
        assert sorted(t["id"] for t in p["tickets"]) == sorted(held)
        assert p["ticket_points"] == sum(t["score"] for t in p["tickets"])
        assert p["completed_tickets"] == sum(t["completed"] for t in p["tickets"])
        assert p["stations_built"] == len(s.stations[seat])
        assert p["station_points"] == p["unbuilt_stations"] * rules.unbuilt_station_points
        trail = p["longest_path"]
        assert set(trail["routes"]) <= set(owned)
        assert trail["length"] == sum(board.route_by_id[r].length for r in trail["routes"])
        assert (trail["length"] == longest["length"]) == (seat in longest["seats"])
        assert p["longest_path_bonus"] == (
            rules.longest_path_bonus if seat in longest["seats"] else 0
        )
        assert p["total"] == (
            p["route_points"]
            + p["ticket_points"]
            + p["station_points"]
            + p["longest_path_bonus"]
            + p["globetrotter_bonus"]
        )
    for a in sheet:
        for b in sheet:
            if a["total"] > b["total"] and not (a["forfeited"] or b["forfeited"]):
                assert a["place"] < b["place"], (a["seat"], b["seat"])
    ranking = s.result["ranking"]
    assert [r["seat"] for r in ranking] == sorted(
        range(s.n_players), key=lambda x: sheet[x]["place"]
    )
    assert [r["total"] for r in ranking] == [sheet[r["seat"]]["total"] for r in ranking]


@pytest.mark.look_ahead
@pytest.mark.parametrize(
    ("players", "seed", "hard_seats"), [(2, 3, (1,)), (4, 3, (0, 2))], ids=["2p", "4p"]
)
def test_hard_with_its_look_ahead_plays_whole_games_to_a_consistent_score(
    monkeypatch, players, seed, hard_seats
):
    """The hard bot as it ships, at a smaller sample budget (``_light_look_ahead``), against
    medium: every action legal, the game ends, the sheet adds up, and the look-ahead weighed
    the first ticket choice, a later one, a move before the end and moves near it."""
    weighed: set[str] = set()
    evaluate = hard.evaluate

    def counted(state: GameState, seat: int, k: Knowledge, *args: Any, **kwargs: Any) -> Any:
        kind = str(state.pending.kind)
        if kind == TURN_ACTION:
            kind += " near the end" if HardBot(0).near_end(k) else " before the end"
        weighed.add(kind)
        return evaluate(state, seat, k, *args, **kwargs)

    monkeypatch.setattr(hard, "evaluate", counted)
    names = ["hard" if seat in hard_seats else "medium" for seat in range(players)]
    s, _ = play(players, seed, names)
    check_counts(s)
    check_final_scores(s)
    assert weighed == {
        CHOOSE_INITIAL_TICKETS,
        KEEP_TICKETS,
        f"{TURN_ACTION} before the end",
        f"{TURN_ACTION} near the end",
    }


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
            action = bots[seat].choose(seat_view(s, seat))
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
        s = s.apply(seat, bots[seat].choose(seat_view(s, seat)))
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
