"""What every operation of the schema declares about bodies and tokens, and that it is so.

tests/api/games/test_response_descriptions.py holds the games operations to every status
they answer; these rules hold for each operation of every app:

- 413 (`REQUEST_TOO_LARGE`, `BODY_TOO_LARGE`), 415 (`UNSUPPORTED_MEDIA_TYPE`) and a 400
  naming `MALFORMED_JSON` are declared exactly where the operation reads a request body;
- an operation that needs a token declares 401 with `NOT_AUTHENTICATED` and
  `AUTHENTICATION_FAILED`; one open to everyone answers without a token, so its 401 is
  `AUTHENTICATION_FAILED` only; one that reads no token at all (`security: [{}]`) names
  neither;
- every response says what it is.

The requests below check the same against the service: each operation is sent a bad token,
no token, a body that is not JSON, a body of another media type, and a `Content-Length`
over the limit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from accounts.services import token_issue
from tests.caches import fresh_caches

CODE = re.compile(r"`([A-Z][A-Z0-9_]+)`")
TOKEN_CODES = {"NOT_AUTHENTICATED", "AUTHENTICATION_FAILED"}
BODY_CODES = {"413": {"REQUEST_TOO_LARGE", "BODY_TOO_LARGE"}, "415": {"UNSUPPORTED_MEDIA_TYPE"}}
METHODS = {"get", "post", "put", "patch", "delete"}

# Path parameters: a board that exists, ids and a name that do not. A token is checked,
# and a body parsed, before any of them is looked up.
PATH_VALUES = {"board": "europe", "username": "nobody-at-all", "provider": "apple"}
MISSING_ID = "999999"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator(api_version="v1").get_schema(request=None, public=True)


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    found = [
        (path, method, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]
    assert len(found) > 40
    return found


def responses(operation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {str(status): response for status, response in operation["responses"].items()}


def named(operation: dict[str, Any], status: str) -> set[str]:
    return set(CODE.findall(responses(operation).get(status, {}).get("description", "")))


def access(operation: dict[str, Any]) -> str:
    """``none``: no token is read; ``open``: a token is read if sent; ``token``: needed."""
    security = operation.get("security", [])
    if all(requirement == {} for requirement in security):
        return "none"
    return "open" if {} in security else "token"


# ----------------------------------------------------------------------------- the schema
def test_every_response_has_a_description(schema: dict[str, Any]) -> None:
    missing = [
        f"{operation['operationId']} {status}"
        for _path, _method, operation in operations(schema)
        for status, response in responses(operation).items()
        if not response.get("description", "").strip()
    ]
    assert not missing, missing


def test_the_body_responses_are_declared_exactly_where_a_body_is_read(
    schema: dict[str, Any],
) -> None:
    wrong = []
    for _path, _method, operation in operations(schema):
        operation_id = operation["operationId"]
        reads_a_body = "requestBody" in operation
        declared = responses(operation)
        for status, codes in BODY_CODES.items():
            if (status in declared) != reads_a_body:
                wrong.append(f"{operation_id}: {status} declared: {status in declared}")
            elif reads_a_body and named(operation, status) != codes:
                wrong.append(f"{operation_id} {status} names {sorted(named(operation, status))}")
        if ("MALFORMED_JSON" in named(operation, "400")) != reads_a_body:
            wrong.append(f"{operation_id}: 400 and MALFORMED_JSON")
    assert not wrong, "\n".join(wrong)


def test_the_401s_say_what_a_token_does(schema: dict[str, Any]) -> None:
    wrong = []
    for _path, _method, operation in operations(schema):
        operation_id = operation["operationId"]
        codes = named(operation, "401") & TOKEN_CODES
        kind = access(operation)
        expected = {
            "none": set(),
            "open": {"AUTHENTICATION_FAILED"},
            "token": TOKEN_CODES,
        }[kind]
        if codes != expected:
            wrong.append(f"{operation_id} ({kind}): 401 names {sorted(codes)}")
    assert not wrong, "\n".join(wrong)


# ----------------------------------------------------------------------------- the service
@pytest.fixture
def fresh_cache(settings: Any) -> Iterator[None]:
    """Throttle counters of these requests only."""
    with fresh_caches(settings, "response-descriptions"):
        yield


@pytest.fixture
def caller(db: None, fresh_cache: None) -> Callable[[], APIClient]:
    """A client with a new token of one user (``auth_logout`` revokes the one it sends)."""
    user = get_user_model().objects.create_user("caller", password="a-long-password-1")

    def make() -> APIClient:
        _, key = token_issue(user, name="test")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return client

    return make


def url(path: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: PATH_VALUES.get(m.group(1), MISSING_ID), path)


def send(client: APIClient, method: str, path: str, body: str, content_type: str, **extra: str):
    if method == "get":
        return client.get(url(path), **extra)
    return getattr(client, method)(url(path), body, content_type=content_type, **extra)


def check(operation: dict[str, Any], response: Any, code: str) -> list[str]:
    """What is wrong with ``response``, which should carry ``code``."""
    status = str(response.status_code)
    got = response.json().get("code") if response.content else None
    if got != code:
        return [f"{operation['operationId']}: {status} {got}, not {code}"]
    if code not in named(operation, status):
        return [f"{operation['operationId']}: {status} {code} is not declared"]
    return []


def test_tokens_are_answered_as_declared(
    schema: dict[str, Any], db: None, fresh_cache: None
) -> None:
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    anonymous = APIClient()
    wrong = []
    for path, method, operation in operations(schema):
        operation_id = operation["operationId"]
        kind = access(operation)
        with_bad = send(bad, method, path, "{}", "application/json")
        without = send(anonymous, method, path, "{}", "application/json")
        if kind == "none":
            for response in (with_bad, without):
                if response.status_code == 401 and TOKEN_CODES & {response.json()["code"]}:
                    wrong.append(f"{operation_id} reads a token: {response.json()['code']}")
            continue
        wrong += check(operation, with_bad, "AUTHENTICATION_FAILED")
        if kind == "token":
            wrong += check(operation, without, "NOT_AUTHENTICATED")
        elif without.status_code == 401:
            wrong.append(f"{operation_id} is open but answers 401 without a token")
    assert not wrong, "\n".join(wrong)


def test_bodies_are_refused_as_declared(
    schema: dict[str, Any], caller: Callable[[], APIClient]
) -> None:
    too_long = str(django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    wrong = []
    for path, method, operation in operations(schema):
        if "requestBody" not in operation:
            continue
        client = caller()
        plain = send(client, method, path, "{", "text/plain")
        wrong += check(operation, plain, "UNSUPPORTED_MEDIA_TYPE")
        malformed = send(client, method, path, "{", "application/json")
        wrong += check(operation, malformed, "MALFORMED_JSON")
        large = send(client, method, path, "{}", "application/json", CONTENT_LENGTH=too_long)
        wrong += check(operation, large, "REQUEST_TOO_LARGE")
    assert not wrong, "\n".join(wrong)


def test_an_operation_without_a_body_reads_none(
    schema: dict[str, Any], caller: Callable[[], APIClient]
) -> None:
    """Whatever is sent to it is not refused for itself."""
    for path, method, operation in operations(schema):
        if method == "get" or "requestBody" in operation:
            continue
        for content_type in ("text/plain", "application/json"):
            response = send(caller(), method, path, "{", content_type)
            assert response.status_code not in {400, 401, 415}, (
                operation["operationId"],
                content_type,
                response.content,
            )
