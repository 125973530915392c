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


def test_a_generated_client_plays_a_whole_game(client_package, live_server):
    api = importlib.import_module("ttr_client.api.auth.auth_register")
    games_create = importlib.import_module("ttr_client.api.games.games_create")
    games_join = importlib.import_module("ttr_client.api.games.games_join")
    games_retrieve = importlib.import_module("ttr_client.api.games.games_retrieve")
    legal_actions = importlib.import_module("ttr_client.api.games.games_legal_actions")
    act = importlib.import_module("ttr_client.api.games.games_actions_create")
    result = importlib.import_module("ttr_client.api.games.games_result")
    models = importlib.import_module("ttr_client.models")
    base = live_server.url

    def account(name):
        anonymous = client_package.AuthenticatedClient(base_url=base, token="", prefix="")
        created = api.sync(
            client=anonymous,
            body=models.RegisterRequest(username=name, password="a-long-Passphrase-42"),
        )
        assert isinstance(created, models.AuthResult), created
        return client_package.AuthenticatedClient(
            base_url=base, token=created.token, prefix="Token"
        )

    alice, bob = account("alice"), account("bob")
    game = games_create.sync(
        client=alice,
        body=models.GameCreateRequest(
            seats=[
                models.SeatSpecRequest(type_=models.SeatSpecTypeEnum.CREATOR),
                models.SeatSpecRequest(type_=models.SeatSpecTypeEnum.OPEN),
            ],
            first_seat=0,
        ),
    )
    assert isinstance(game, models.GameDetail), game
    joined = games_join.sync(game.id, client=bob, body=models.JoinRequest())
    assert isinstance(joined, models.GameDetail) and joined.status.value == "active"

    players = {0: alice, 1: bob}
    rnd = random.Random(11)
    view = joined
    for _ in range(3000):
        # Each response carries the next pending decision: no polling needed between moves.
        if view.status.value == "finished":
            break
        seat = view.state.pending.seats[0]
        options = legal_actions.sync(game.id, client=players[seat])
        assert isinstance(options, models.LegalActions)
        actions = [a.to_dict() for a in options.actions]
        kind = rnd.choice(sorted({a["type"] for a in actions}))
        choice = rnd.choice([a for a in actions if a["type"] == kind])
        view = act.sync(
            game.id,
            client=players[seat],
            body=models.ActionRequestRequest(
                version=options.version, action=models.ActionRequest.from_dict(choice)
            ),
        )
        assert isinstance(view, models.GameDetail), view
    assert games_retrieve.sync(game.id, client=alice).status.value == "finished"
    final = result.sync(game.id, client=bob)
    assert final is not None and len(final.to_dict()["ranking"]) == 2
