"""schemathesis against the service as ``make run`` starts it: every check, every phase.

``bash scripts/serve`` (the web server and a worker with its beat, under the supervisor)
runs on a free port with its own ``VAR_DIR``, once with the development defaults and once
with the settings of a production server (DEBUG off, a secret key, behind a proxy that
terminates TLS and says so with ``X-Forwarded-Proto``). The test builds its world through
the API alone (three accounts; a running game, a lobby, a cancelled and a finished game),
then runs the ``schemathesis`` command on the committed schema, as a client developer
would: the examples, coverage, fuzzing and stateful phases (the stateful one follows the
links schemathesis infers between operations), with all its checks, authenticated as the
`player` account. ``live_fuzz_hooks.py`` points generated ids at real ones part of the time
and knows the refusals the schema documents but cannot state (``fuzz_rules.py``). The run
must end with no failure.

Left out: operations that answer an endless ``text/event-stream`` (a stream ends only
when its game does; they have tests of their own). Throttles are lifted (``THROTTLE_*``)
since one account sends thousands of requests.

``FUZZ_EXAMPLES`` sets the examples per operation (default 5, with a fixed seed so CI sees
the same cases every time); ``make fuzz`` runs 100 with a new seed.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.processes import BIN, ROOT, Process, free_port, running, wait_for

from .fuzz_rules import endless_streams

SCHEMA = ROOT / "openapi" / "schema.yaml"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES") or 5)
SEED = None if os.environ.get("FUZZ_EXAMPLES") else 1
PASSWORD = "a-long-password-1"

UNTHROTTLED = {
    f"THROTTLE_{scope}_RATE": "1000000/min" for scope in ("ANON", "USER", "LOGIN", "SCORE")
}
SETTINGS: dict[str, dict[str, str]] = {
    "development": {},
    "production": {
        "DEBUG": "false",
        "SECRET_KEY": "fuzz-" + "k" * 60,
        "TRUST_X_FORWARDED_PROTO": "true",
        "LOGIN_FAILURE_LIMIT": "100000",
    },
}
# What the proxy in front of a production server adds to every request.
PROXY_HEADERS = {"production": {"X-Forwarded-Proto": "https"}, "development": {}}


class Serve(Process):
    """``bash scripts/serve`` on a free port, with a folder of its own for its files."""

    def __init__(self, folder: Path, extra: dict[str, str], headers: dict[str, str]) -> None:
        super().__init__("serve", folder / "serve.log")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.headers = headers
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        self.env = {
            **env,
            **UNTHROTTLED,
            **extra,
            "VAR_DIR": str(folder / "var"),
            "PORT": str(self.port),
            "WEB_CONCURRENCY": "1",
            "CELERY_BEAT_SCHEDULE_FILE": str(folder / "beat-schedule"),
            # The beat reports in with its first sweep.
            "DEADLINE_SWEEP_SECONDS": "5",
        }

    def start(self) -> None:
        self.spawn(["bash", str(ROOT / "scripts" / "serve")], self.env)
        # Healthy: the web server answers, and the worker and its beat have reported in
        # (until then /health is rightly 503, which the fuzzers would count as a failure).
        wait_for(self.healthy, 180, "make run's service to be healthy")

    def healthy(self) -> bool:
        try:
            return httpx.get(f"{self.url}/api/v1/health", headers=self.headers).status_code == 200
        except httpx.HTTPError:
            return False


class Client:
    """One account of the world, speaking to the live server."""

    def __init__(self, serve: Serve, username: str) -> None:
        self.serve = serve
        body = self.call("POST", "/auth/register", {"username": username, "password": PASSWORD})
        self.username = username
        self.key = str(body["token"])

    def call(self, method: str, path: str, body: Any = None, expect: int | None = None) -> Any:
        headers = dict(self.serve.headers)
        if getattr(self, "key", None):
            headers["Authorization"] = f"Token {self.key}"
        response = httpx.request(
            method, f"{self.serve.url}/api/v1{path}", json=body, headers=headers, timeout=30
        )
        assert response.status_code < 300, (method, path, response.status_code, response.text)
        return response.json() if response.content else None

    def act(self, game_id: int, action: dict[str, Any]) -> Any:
        version = self.call("GET", f"/games/{game_id}")["version"]
        body = {"version": version, "action": action}
        return self.call("POST", f"/games/{game_id}/actions", body)

    def keep_offered(self, game_id: int) -> None:
        offered = self.call("GET", f"/games/{game_id}")["state"]["you"]["offered_tickets"]
        self.act(game_id, {"type": "keep_tickets", "tickets": [t["id"] for t in offered]})


def two_player_game(player: Client, opponent: Client) -> int:
    game = player.call(
        "POST", "/games", {"board": "europe", "seats": [{"type": "creator"}, {"type": "open"}]}
    )
    opponent.call("POST", f"/games/{game['id']}/join", {})
    for who in (player, opponent):
        who.keep_offered(game["id"])
    return int(game["id"])


def build_world(serve: Serve, folder: Path) -> Path:
    player, opponent, _ = (Client(serve, n) for n in ("player", "opponent", "outsider"))
    running_game = two_player_game(player, opponent)
    lobby = player.call(
        "POST",
        "/games",
        {
            "board": "europe",
            "seats": [
                {"type": "creator"},
                {"type": "invite", "username": "outsider"},
                {"type": "open"},
            ],
        },
    )["id"]
    cancelled = player.call(
        "POST", "/games", {"board": "europe", "seats": [{"type": "creator"}, {"type": "open"}]}
    )["id"]
    player.call("POST", f"/games/{cancelled}/cancel")
    finished = two_player_game(player, opponent)
    opponent.act(finished, {"type": "forfeit"})
    assert player.call("GET", f"/games/{finished}")["status"] == "finished"
    world = {
        "url": serve.url,
        "key": player.key,
        "headers": serve.headers,
        "games": [running_game, running_game, lobby, cancelled, finished],
        "usernames": ["player", "opponent", "outsider", "me"],
    }
    path = folder / "world.json"
    path.write_text(json.dumps(world))
    return path


@pytest.mark.parametrize("settings_kind", ["development", "production"])
def test_schemathesis_finds_nothing_against_the_service_as_make_run_starts_it(
    tmp_path: Path, settings_kind: str
) -> None:
    headers = PROXY_HEADERS[settings_kind]
    with running(Serve(tmp_path, SETTINGS[settings_kind], headers)) as serve:
        world = build_world(serve, tmp_path)
        command = [
            str(BIN / "schemathesis"),
            "run",
            str(SCHEMA),
            "--url",
            serve.url,
            "--checks",
            "all",
            "--phases",
            "examples,coverage,fuzzing,stateful",
            "--max-examples",
            str(EXAMPLES),
            "--workers",
            "1",
            "--request-timeout",
            "30",
            "--generation-allow-x00",
            "true",
            "--no-color",
        ]
        for name, value in headers.items():
            command += ["--header", f"{name}: {value}"]
        if SEED is not None:
            command += ["--seed", str(SEED), "--generation-deterministic"]
        for operation_id in endless_streams(SCHEMA):
            command += ["--exclude-operation-id", operation_id]
        env = {
            **os.environ,
            "SCHEMATHESIS_HOOKS": "tests.trust.live_fuzz_hooks",
            "TTR_FUZZ_WORLD": str(world),
            "PYTHONPATH": str(ROOT),
        }
        started = time.monotonic()
        run = subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=3600
        )
        output = run.stdout + run.stderr
        (tmp_path / "schemathesis.log").write_text(output)
        print(output[-4000:])
        print(f"schemathesis ({settings_kind}): {time.monotonic() - started:.0f} s")
        assert run.returncode == 0, output[-20000:]
        assert "Stateful" in output
