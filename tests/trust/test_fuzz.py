"""Fuzz every operation of the committed OpenAPI schema against the running application.

schemathesis generates valid and invalid requests (bodies, query strings, headers, path
parameters) from ``openapi/schema.yaml``; each is sent to Django's WSGI application three
times, authenticated as each of three personas with real tokens:

- ``player``: seated in a running two-player game (seat 0), creator of every game below;
- ``opponent``: seat 1 of that game;
- ``outsider``: in no game, but invited to a lobby.

Generated game ids are swapped for ids that exist (the running game, a lobby, a cancelled
and a finished game) four times in five, so the fuzzer reaches the endpoints' logic instead
of only their 404s; other ids and usernames likewise; the fifth goes through as generated.
Every response must not be a 5xx, must carry a status documented for the operation, and its
body and headers must match the schema. schemathesis's other checks run too: invalid data
must be refused and valid data accepted, a missing required header is refused, an
undeclared method answers 405 with ``Allow``, a request without or with a wrong token is
refused where the schema asks for one, and (for the stateful links) a deleted resource is
gone and a created one is there. Refusals of schema-valid data for a reason no schema can
state are listed, with their codes, in ``DOCUMENTED_REFUSALS``.

Logout and token revocation would kill the persona's token in the middle of a run, so
those two operations run with a throwaway token of the persona, issued for each request, and
token ids are only ever pointed at throwaway tokens.

``FUZZ_EXAMPLES`` sets the examples per operation and persona (default 8, a CI run of
about a minute on two cores); a longer run: ``make fuzz`` (100).
The default run is derandomized, so CI sees the same cases every time; a run with
``FUZZ_EXAMPLES`` set draws new ones.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    content_type_conformance,
    ensure_resource_availability,
    ignored_auth,
    missing_required_header,
    negative_data_rejection,
    object_level_authorization,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
    use_after_free,
)

from accounts.models import AuthToken
from accounts.services import token_issue

from .conftest import Persona, create_game, finished_game, persona, running_game
from .fuzz_rules import TOKEN_ENDING, documented_refusal, endless_streams

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "openapi" / "schema.yaml"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES") or 8)
CUSTOM_RUN = bool(os.environ.get("FUZZ_EXAMPLES"))

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    missing_required_header,
    unsupported_method,
    allow_header_conformance,
    use_after_free,
    ensure_resource_availability,
    ignored_auth,
    object_level_authorization,
]

# (operationId, check name) pairs a check is wrong about, each with the documented reason.
EXCLUDED: dict[tuple[str, str], str] = {}


def _positive_data_acceptance(ctx: Any, response: Any, case: Any) -> bool | None:
    if documented_refusal(case, response):
        return None
    result: bool | None = positive_data_acceptance(ctx, response, case)
    return result


_positive_data_acceptance.__name__ = positive_data_acceptance.__name__


def _checks_for(case: Any) -> list[Any]:
    operation_id = case.operation.definition.raw.get("operationId")
    checks = [c for c in CHECKS if (operation_id, c.__name__) not in EXCLUDED]
    return [_positive_data_acceptance if c is positive_data_acceptance else c for c in checks]


# Operations answering an endless event stream are left out: a stream ends only when its
# game does (they have tests of their own).
schema = schemathesis.openapi.from_path(SCHEMA_PATH).exclude(
    operation_id=endless_streams(SCHEMA_PATH)
)
schema.config.generation.update(
    modes=["positive", "negative"],
    with_security_parameters=False,  # the persona's real token is sent instead
    allow_x00=True,
)

APP = get_wsgi_application()
# Checks that send requests of their own (ignored_auth's probes without and with a wrong
# token) send them to the same application.
schema.app = APP

# Cases run in this process, for the summary line (see conftest.pytest_terminal_summary).
CASES: dict[str, int] = {"cases": 0}


class World:
    """The accounts and games a run works on; the games are made when an operation needs them."""

    def __init__(self) -> None:
        self.player = persona("player")
        self.opponent = persona("opponent")
        self.outsider = persona("outsider")
        self.personas = [self.player, self.opponent, self.outsider]
        self._games: list[int] = []

    def game_ids(self) -> list[int]:
        if not self._games:
            running = running_game(self.player, self.opponent)
            lobby = create_game(
                self.player.client,
                [{"type": "creator"}, {"type": "invite", "username": "outsider"}, {"type": "open"}],
            )
            cancelled = create_game(self.player.client)
            cancel = self.player.client.post(f"/api/v1/games/{cancelled}/cancel")
            assert cancel.status_code == 200
            finished = finished_game(self.player, self.opponent)
            self._games = [running, running, lobby, cancelled, finished]
        return self._games

    def usernames(self) -> list[str]:
        return [p.name for p in self.personas] + ["me"]


@pytest.fixture
def world(db: None, unthrottled: None) -> World:
    return World()


@pytest.fixture
def wsgi_app() -> Any:
    # Django's test client does the same: closing the connection at the end of a request
    # would end the test's transaction.
    request_finished.disconnect(close_old_connections)
    yield APP
    request_finished.connect(close_old_connections)


def _reachable(case: Any, world: World, who: Persona) -> None:
    """Point generated ids at rows that exist, keeping some generated ones as they were."""
    params = case.path_parameters or {}
    for name, value in list(params.items()):
        if name == "game_id" and isinstance(value, int):
            choices: list[Any] = world.game_ids()
        elif name == "username" and isinstance(value, str):
            choices = world.usernames()
        elif name == "token_id" and isinstance(value, int):
            # Never the persona's own token: revoking it would end the run's authentication.
            tokens = AuthToken.objects.filter(user=who.user).exclude(name="trust")
            choices = list(tokens.values_list("pk", flat=True))
        elif name.endswith("_id") and isinstance(value, int):
            choices = [1, 2, 3]
        else:
            continue
        # Deterministic in the generated value, so hypothesis can still shrink a failure; one
        # value in five goes through as generated (an id or name that most likely does not exist).
        drawn = abs(value) if isinstance(value, int) else len(value)
        if choices and drawn % 5:
            params[name] = choices[(drawn // 5) % len(choices)]


def _token_for(case: Any, who: Persona) -> str:
    if case.operation.definition.raw.get("operationId") in TOKEN_ENDING:
        _, key = token_issue(who.user, name="throwaway")
        return key
    assert who.key is not None
    return who.key


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=not CUSTOM_RUN,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_answer_is_documented_and_no_request_breaks_the_server(
    case: Any, world: World, wsgi_app: Any
) -> None:
    generated = dict(case.path_parameters or {})
    for person in world.personas:
        if generated:
            case.path_parameters = dict(generated)
        headers = {"Authorization": f"Token {_token_for(case, person)}"}
        _reachable(case, world, person)
        response = case.call(app=wsgi_app, headers=headers)
        CASES["cases"] += 1
        case.validate_response(
            response,
            checks=_checks_for(case),
            headers=headers,
        )
