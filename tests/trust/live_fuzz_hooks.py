"""schemathesis hooks for the fuzz run against a live server (``test_fuzz_live.py``).

The schemathesis command loads this module (``SCHEMATHESIS_HOOKS``) in its own process; it
reads the world the test built through the API from the JSON file ``TTR_FUZZ_WORLD`` names:
the server's URL, the `player` persona's token, and the ids and usernames that exist.

- Generated ids are swapped for ones that exist four times in five (deterministically in
  the generated value, so a failure still reproduces and shrinks); the fifth goes through
  as generated. Token ids only ever point at a throwaway token made for the request, so
  revoking one never ends the run's own token.
- Requests carry the `player` account's token, set by an auth provider (so the
  ``ignored_auth`` check knows what to leave out); the operations that end the token
  calling them (logout, revoke) get a throwaway token of the account, made for each.
- A schema-valid request refused for a reason the operation documents (``fuzz_rules``)
  is not a failure of ``positive_data_acceptance``; every other failure of every check is.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx
import schemathesis

from tests.trust.fuzz_rules import TOKEN_ENDING, documented_refusal

WORLD: dict[str, Any] = json.loads(Path(os.environ["TTR_FUZZ_WORLD"]).read_text())


def _throwaway_token() -> tuple[int, str]:
    response = httpx.post(
        f"{WORLD['url']}/api/v1/auth/tokens",
        json={"name": "throwaway"},
        headers={"Authorization": f"Token {WORLD['key']}", **WORLD["headers"]},
        timeout=10,
    )
    response.raise_for_status()
    body = response.json()
    return int(body["id"]), str(body["token"])


@schemathesis.hook
def map_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> Any:
    if not path_parameters:
        return path_parameters
    params = dict(path_parameters)
    for name, value in params.items():
        if name == "token_id":
            # Never the run's own token, whatever was generated.
            params[name] = _throwaway_token()[0]
            continue
        if name == "game_id" and isinstance(value, int):
            choices: list[Any] = WORLD["games"]
        elif name == "username" and isinstance(value, str):
            choices = WORLD["usernames"]
        elif name.endswith("_id") and isinstance(value, int):
            choices = [1, 2, 3]
        else:
            continue
        drawn = abs(value) if isinstance(value, int) else len(value)
        if drawn % 5:
            params[name] = choices[(drawn // 5) % len(choices)]
    return params


@schemathesis.auth(refresh_interval=None, retry_on=[])
class PlayerToken:
    """The `player` account's token on every request; a throwaway one of the same account
    on the operations that end the token calling them."""

    def get(self, case: Any, ctx: Any) -> str:
        if case.operation.definition.raw.get("operationId") in TOKEN_ENDING:
            return _throwaway_token()[1]
        return str(WORLD["key"])

    def set(self, case: Any, data: str, ctx: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Token {data}"}


@schemathesis.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    refused_as_documented = getattr(failure, "code", None) == "ST202" and documented_refusal(
        case, response
    )
    return not refused_as_documented
