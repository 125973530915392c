"""Work the look-ahead saves: plans kept from one decision to the next within a play-out
(``planner.PlanMemo``), handed out again only while the game leaves them whole and never
from one play-out to the next; and face-up cards of one colour compared as one move."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from engine import GameState
from engine.actions import DrawFaceUp
from engine.bots import hard
from engine.bots.hard import HardBot, HardPlanner
from engine.bots.knowledge import Knowledge, know
from engine.bots.lookahead import Estimate, evaluate
from engine.bots.medium import MediumBot
from engine.bots.planner import Plan, PlanMemo, pending_tickets, plan_network, route_costs
from engine.legal import draw_actions
from engine.state import TURN_ACTION

from .invariants import states_of_a_game

SPARE = MediumBot.spare_trains


def planned_positions() -> list[tuple[Knowledge, Plan]]:
    """Mid-game turns of medium-bot games whose seat plans at least two routes."""
    out = []
    for seed in (21, 22, 23):
        for s in states_of_a_game(seed, every=11):
            if s.pending.kind != TURN_ACTION:
                continue
            k = know(s, s.pending.seats[0])
            costs = route_costs(k, MediumBot.weights)
            plan = plan_network(k, pending_tickets(k), costs, MediumBot.weights, spare_trains=SPARE)
            if len(plan.routes) >= 2:
                out.append((k, plan))
    assert len(out) >= 10
    return out


def kept(k: Knowledge, plan: Plan) -> PlanMemo:
    memo = PlanMemo()
    memo.put(k, plan)
    return memo


def get(memo: PlanMemo, k: Knowledge) -> Plan | None:
    return memo.get(k, route_costs(k, MediumBot.weights), SPARE)


def test_an_unchanged_game_gets_the_same_plan_and_another_seat_none():
    for k, plan in planned_positions():
        memo = kept(k, plan)
        assert get(memo, k) is plan
        other = (k.seat + 1) % k.players
        assert get(memo, replace(k, seat=other)) is None


def test_the_seats_own_claims_leave_the_rest_of_the_plan():
    for k, plan in planned_positions():
        memo = kept(k, plan)
        r = plan.routes[0]
        length = k.board.routes[r].length
        owner = list(k.owner)
        owner[r] = k.seat
        trains = list(k.trains)
        trains[k.seat] -= length
        left = get(memo, replace(k, owner=owner, trains=trains))
        assert left is not None
        assert left.routes == plan.routes[1:]
        assert left.trains == plan.trains - length
        assert all(r not in p for p in left.paths.values())
        assert left.kept == plan.kept and left.borrowed == plan.borrowed


def test_a_plan_the_game_breaks_is_not_handed_out():
    for k, plan in planned_positions():
        memo = kept(k, plan)
        rival = (k.seat + 1) % k.players
        # An opponent claims a route of the plan.
        owner = list(k.owner)
        owner[plan.routes[-1]] = rival
        assert get(memo, replace(k, owner=owner)) is None
        # A station is built anywhere on the board.
        free = k.station_owner.index(-1)
        stations = list(k.station_owner)
        stations[free] = rival
        assert get(memo, replace(k, station_owner=stations)) is None
        # The seat's pending tickets change: a new one, or one joined.
        extra = next(t for t in k.board.tickets if t not in k.tickets)
        with_new = replace(k, tickets=[*k.tickets, extra], connected=[*k.connected, False])
        assert get(memo, with_new) is None
        first = k.connected.index(False)
        joined = [c or i == first for i, c in enumerate(k.connected)]
        assert get(memo, replace(k, connected=joined)) is None
        # Too few trains left for it.
        trains = list(k.trains)
        trains[k.seat] = plan.trains + SPARE - 1
        assert get(memo, replace(k, trains=trains)) is None


def near_end_turns(seed: int) -> list[GameState]:
    return [
        s
        for s in states_of_a_game(seed, every=5)
        if s.pending.kind == TURN_ACTION and min(s.trains) <= 10
    ]


@pytest.mark.look_ahead
def test_each_play_out_starts_with_no_plans_kept():
    """Clearing the memo before each play-out gives what players new to the game would:
    plans kept in one play-out would otherwise steer the next."""
    s = near_end_turns(24)[0]
    seat = s.pending.seats[0]
    k = know(s, seat)
    candidates = draw_actions(s, seat)[:3]
    planner, opponent = HardPlanner(0), MediumBot(0)
    policies = [planner.decide if x == seat else opponent.decide for x in range(k.players)]

    def values(fresh: Callable[[], None] | None) -> list[list[float]]:
        planner.memo = opponent.memo = PlanMemo()
        out = evaluate(s, seat, k, candidates, policies, 6, random.Random(3), fresh=fresh)
        return [e.values for e in out]

    def renew() -> None:
        planner.memo = opponent.memo = PlanMemo()

    cleared = values(lambda: planner.memo.clear() if planner.memo else None)
    assert cleared == values(renew)
    assert cleared != values(None)


@pytest.mark.look_ahead
def test_hards_play_outs_are_those_of_players_new_to_each_one(monkeypatch):
    """Every comparison hard makes scores its candidates as players that start each
    play-out with nothing kept would, in a game it has been deciding all along."""
    compared = 0

    def checked(*args: Any, **kwargs: Any) -> list[Estimate]:
        nonlocal compared
        state, seat, k, candidates, _policies, samples, rng = args[:7]
        planner, opponent = HardPlanner(5), MediumBot(5)

        def renew() -> None:
            planner.memo = opponent.memo = PlanMemo()

        policies = [planner.decide if x == seat else opponent.decide for x in range(k.players)]
        twin = random.Random()
        twin.setstate(rng.getstate())
        out = evaluate(*args, **kwargs)
        again = evaluate(
            state,
            seat,
            k,
            candidates,
            policies,
            samples,
            twin,
            *args[7:],
            **{**kwargs, "fresh": renew},
        )
        assert [e.values for e in out] == [e.values for e in again]
        compared += 1
        return out

    monkeypatch.setattr(hard, "evaluate", checked)
    bot = HardBot(5, budget=0.25)
    for s in near_end_turns(24)[:4]:
        bot.decide(s, s.pending.seats[0])
    assert compared >= 4


@pytest.mark.look_ahead
def test_face_up_cards_of_one_colour_are_compared_once(monkeypatch):
    compared: list[list[Any]] = []

    def recorded(state: GameState, seat: int, k: Knowledge, candidates: Any, *args: Any, **kw: Any):
        faces = [k.market[c.slot] for c in candidates if isinstance(c, DrawFaceUp)]
        compared.append(faces)
        return evaluate(state, seat, k, candidates, *args, **kw)

    monkeypatch.setattr(hard, "evaluate", recorded)
    doubled = [
        s
        for seed in (26, 27)
        for s in near_end_turns(seed)
        if len(set(s.market)) < len(s.market) and None not in s.market
    ][:3]
    assert doubled
    for s in doubled:
        HardBot(5, budget=0.25).decide(s, s.pending.seats[0])
    assert compared
    assert all(len(faces) == len(set(faces)) and faces for faces in compared)
