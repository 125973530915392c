"""A third party integrates from the schema alone.

A Python client is generated from the committed ``openapi/schema.yaml`` with
openapi-python-client, and two accounts play a whole game with it against a live server.
"""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "openapi" / "schema.yaml"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def client_package(tmp_path_factory):
    out = tmp_path_factory.mktemp("generated") / "ttr_client"
    env = {**os.environ, "PATH": f"{GENERATOR.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(SCHEMA),
            "--output-path",
            str(out),
            "--meta",
            "none",
        ],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    sys.path.insert(0, str(out.parent))
    try:
        yield importlib.import_module("ttr_client")
    finally:
        sys.path.remove(str(out.parent))
        for name in [m for m in sys.modules if m.split(".")[0] == "ttr_client"]:
            del sys.modules[name]


def undeclared(model: Any, path: str = "body") -> list[str]:
    """The fields of a parsed response the schema did not declare: the generated models keep
    them in ``additional_properties``. Walks nested models and lists."""
    found: list[str] = []
    if attrs.has(type(model)):
        declared = [f.name for f in attrs.fields(type(model)) if f.name != "additional_properties"]
        # A model without declared fields is a map (typed values): its entries are its data.
        if declared:
            found += [f"{path}.{name}" for name in model.additional_properties]
        for name in declared:
            found += undeclared(getattr(model, name), f"{path}.{name}")
    elif isinstance(model, list):
        for i, item in enumerate(model):
            found += undeclared(item, f"{path}[{i}]")
    return found


def test_a_generated_client_plays_a_whole_game_on_its_typed_models(client_package, live_server):
    """Every response is read through the generated models' attributes (no dictionaries),
    every action sent is built from a request model of its own shape, and no response
    carries a field the schema does not declare."""
    api = importlib.import_module("ttr_client.api.auth.auth_register")
    games_create = importlib.import_module("ttr_client.api.games.games_create")
    games_join = importlib.import_module("ttr_client.api.games.games_join")
    games_retrieve = importlib.import_module("ttr_client.api.games.games_retrieve")
    legal_actions = importlib.import_module("ttr_client.api.games.games_legal_actions")
    act = importlib.import_module("ttr_client.api.games.games_actions_create")
    moves_list = importlib.import_module("ttr_client.api.games.games_moves_list")
    result = importlib.import_module("ttr_client.api.games.games_result")
    record = importlib.import_module("ttr_client.api.games.games_record")
    board_retrieve = importlib.import_module("ttr_client.api.boards.boards_retrieve")
    m = importlib.import_module("ttr_client.models")
    base = live_server.url

    def account(name):
        anonymous = client_package.AuthenticatedClient(base_url=base, token="", prefix="")
        created = api.sync(
            client=anonymous,
            body=m.RegisterRequest(username=name, password="a-long-Passphrase-42"),
        )
        assert isinstance(created, m.AuthResult), created
        return client_package.AuthenticatedClient(
            base_url=base, token=created.token, prefix="Bearer"
        )

    def request_for(action):
        """The request model for a served legal action, field by field."""
        if isinstance(action, m.KeepTicketsAction):
            return m.KeepTicketsRequest(
                type_=m.KeepTicketsTypeEnum.KEEP_TICKETS, tickets=list(action.tickets)
            )
        if isinstance(action, m.DrawFaceUpAction):
            return m.DrawFaceUpRequest(type_=m.DrawFaceUpTypeEnum.DRAW_FACE_UP, slot=action.slot)
        if isinstance(action, m.DrawBlindAction):
            return m.DrawBlindRequest(type_=m.DrawBlindTypeEnum.DRAW_BLIND)
        if isinstance(action, m.DrawTicketsAction):
            return m.DrawTicketsRequest(type_=m.DrawTicketsTypeEnum.DRAW_TICKETS)
        if isinstance(action, m.ClaimRouteAction):
            return m.ClaimRouteRequest(
                type_=m.ClaimRouteTypeEnum.CLAIM_ROUTE,
                route=action.route,
                color=action.color,
                locomotives=action.locomotives,
            )
        if isinstance(action, m.BuildStationAction):
            return m.BuildStationRequest(
                type_=m.BuildStationTypeEnum.BUILD_STATION,
                city=action.city,
                color=action.color,
                locomotives=action.locomotives,
            )
        if isinstance(action, m.PayTunnelAction):
            return m.PayTunnelRequest(
                type_=m.PayTunnelTypeEnum.PAY_TUNNEL, locomotives=action.locomotives
            )
        assert isinstance(action, m.DeclineTunnelAction), action
        return m.DeclineTunnelRequest(type_=m.DeclineTunnelTypeEnum.DECLINE_TUNNEL)

    alice, bob = account("alice"), account("bob")
    game = games_create.sync(
        client=alice,
        body=m.GameCreateRequest(
            seats=[
                m.SeatSpecRequest(type_=m.SeatSpecTypeEnum.CREATOR),
                m.SeatSpecRequest(type_=m.SeatSpecTypeEnum.OPEN),
            ],
            first_seat=0,
        ),
    )
    assert isinstance(game, m.GameDetail), game
    joined = games_join.sync(game.id, client=bob, body=m.JoinRequest())
    assert isinstance(joined, m.GameDetail) and joined.status == m.GameStatusEnum.ACTIVE

    players = {0: alice, 1: bob}
    rnd = random.Random(11)
    view = joined
    shapes_sent: set[type] = set()
    tunnels_seen = 0
    for _ in range(3000):
        # Each response carries the next pending decision: no polling needed between moves.
        if view.status == m.GameStatusEnum.FINISHED:
            break
        assert undeclared(view) == []
        seat = view.state.pending.seats[0]
        options = legal_actions.sync(game.id, client=players[seat])
        assert isinstance(options, m.LegalActions) and undeclared(options) == []
        assert options.can_forfeit is True
        if options.pending.kind == m.PendingKindEnum.TUNNEL_PAYMENT:
            assert isinstance(options.pending.tunnel, m.Tunnel)
            tunnels_seen += 1
        kinds = sorted({type(a).__name__ for a in options.actions})
        kind = rnd.choice(kinds)
        choice = rnd.choice([a for a in options.actions if type(a).__name__ == kind])
        shapes_sent.add(type(choice))
        view = act.sync(
            game.id,
            client=players[seat],
            body=m.ActionRequestRequest(version=options.version, action=request_for(choice)),
        )
        assert isinstance(view, m.GameDetail), view
    finished = games_retrieve.sync(game.id, client=alice)
    assert finished.status == m.GameStatusEnum.FINISHED
    assert isinstance(finished.state.result, m.ScoreSheet)
    assert {m.DrawBlindAction, m.ClaimRouteAction, m.KeepTicketsAction} <= shapes_sent

    final = result.sync(game.id, client=bob)
    assert isinstance(final, m.ScoreSheet) and undeclared(final) == []
    assert sorted(r.seat for r in final.ranking) == [0, 1]
    assert final.ranking[0].total == max(p.total for p in final.players)

    log = moves_list.sync(game.id, client=bob, limit=500)
    assert isinstance(log, m.MoveList) and undeclared(log) == []
    events = [e for move in log.moves for e in move.events]
    assert any(isinstance(e, m.RouteClaimedEvent) for e in events)
    assert isinstance(events[-1], m.GameOverEvent)
    assert [r.seat for r in events[-1].ranking] == [r.seat for r in final.ranking]

    replayed = record.sync(game.id, client=alice)
    assert isinstance(replayed, m.GameRecord) and undeclared(replayed) == []
    assert all(isinstance(e, m.RecordEntry) for e in replayed.actions)
    assert isinstance(replayed.actions[0].action, m.KeepTicketsAction)

    board = board_retrieve.sync("europe", client=alice)
    assert isinstance(board, m.Board) and undeclared(board) == []
    assert isinstance(board.rules, m.Rules) and board.rules.trains_per_player == 45
    assert all(isinstance(r, m.Route) for r in board.routes)
