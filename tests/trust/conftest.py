"""Fixtures for the trust suite: real accounts with real tokens, and games in every state.

The API suite's autouse fixtures (fast password hashing, a fresh throttle cache) and the
games suite's inline Celery apply here too; they are imported so pytest registers them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.services import token_issue
from engine.bots import seat_view
from tests.api.conftest import _fast_password_hashing, _fresh_cache  # noqa: F401
from tests.api.games.conftest import _tasks_run_inline  # noqa: F401


@dataclass
class Persona:
    name: str
    user: Any
    key: str | None
    client: APIClient = field(repr=False)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Token {self.key}"} if self.key else {}


@pytest.fixture(autouse=True)
def _health_without_workers(settings: Any) -> None:
    """No worker runs in these in-process tests; health then answers for the web process
    and its database alone (``HEALTH_REQUIRE_WORKERS``), as a load balancer's probe does."""
    settings.HEALTH_REQUIRE_WORKERS = False


def persona(username: str) -> Persona:
    user = get_user_model().objects.create_user(username, password="a-long-password-1")
    _, key = token_issue(user, name="trust")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return Persona(username, user, key, client)


@pytest.fixture
def unthrottled(settings: Any) -> Iterator[None]:
    """Lift DRF's rates: a fuzz run sends thousands of requests as one user."""
    from rest_framework.throttling import SimpleRateThrottle

    saved = dict(SimpleRateThrottle.THROTTLE_RATES)
    SimpleRateThrottle.THROTTLE_RATES.update({k: "100000/min" for k in saved})
    yield
    SimpleRateThrottle.THROTTLE_RATES.clear()
    SimpleRateThrottle.THROTTLE_RATES.update(saved)


def create_game(client: APIClient, seats: list[dict[str, Any]] | None = None, **extra: Any) -> int:
    body = {"board": "europe", "seats": seats or [{"type": "creator"}, {"type": "open"}], **extra}
    response = client.post("/api/v1/games", body, format="json")
    assert response.status_code == 201, response.content
    game_id: int = response.json()["id"]
    return game_id


def running_game(creator: Persona, opponent: Persona) -> int:
    """A started 2-player game past the initial tickets: creator seat 0, opponent seat 1."""
    game_id = create_game(creator.client, first_seat=0)
    joined = opponent.client.post(f"/api/v1/games/{game_id}/join", {}, format="json")
    assert joined.status_code == 200, joined.content
    for who in (creator, opponent):
        view = who.client.get(f"/api/v1/games/{game_id}").json()
        offered = [t["id"] for t in view["state"]["you"]["offered_tickets"]]
        body = {"version": view["version"], "action": {"type": "keep_tickets", "tickets": offered}}
        response = who.client.post(f"/api/v1/games/{game_id}/actions", body, format="json")
        assert response.status_code == 200, response.content
    return game_id


def finished_game(creator: Persona, opponent: Persona) -> int:
    """A 2-player game played to the end by random bots in memory, stored like a real one."""
    from django.utils import timezone

    from engine.bots import make_bot
    from games.models import Game, GameStatus, Move

    game_id = create_game(creator.client, first_seat=0)
    joined = opponent.client.post(f"/api/v1/games/{game_id}/join", {}, format="json")
    assert joined.status_code == 200, joined.content
    game = Game.objects.get(pk=game_id)
    from games.domain.seats import state_of

    state = state_of(game)
    bot = make_bot("random", game.seed)
    moves = []
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
    Game.objects.filter(pk=game_id).update(
        state=state.to_json(),
        status=GameStatus.FINISHED,
        result=state.result,
        finished_at=timezone.now(),
        version=game.version + len(moves),
        deadline=None,
    )
    game.seats.update(pending=False)
    return game_id


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print how many fuzz requests ran (summed over xdist workers)."""
    import sys

    total = 0
    fuzz = sys.modules.get("tests.trust.test_fuzz")
    if fuzz is not None:
        total += fuzz.CASES["cases"]
    for report in getattr(terminalreporter.config, "_fuzz_worker_cases", []):
        total += report
    if total:
        terminalreporter.write_line(f"schemathesis: {total} requests checked")


def pytest_testnodedown(node: Any, error: Any) -> None:
    cases = getattr(node, "workeroutput", {}).get("fuzz_cases")
    if cases:
        node.config._fuzz_worker_cases = [*getattr(node.config, "_fuzz_worker_cases", []), cases]


def pytest_sessionfinish(session: Any) -> None:
    import sys

    fuzz = sys.modules.get("tests.trust.test_fuzz")
    workeroutput = getattr(session.config, "workeroutput", None)
    if fuzz is not None and workeroutput is not None:
        workeroutput["fuzz_cases"] = fuzz.CASES["cases"]
