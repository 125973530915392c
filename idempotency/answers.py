"""``idempotent``: a view's write method answered once per Idempotency-Key.

The first request with a key inserts the key's row, runs the write and keeps its answer in
ONE transaction: the write's own changes and the answer commit together or not at all.
A retry with the same request gets that answer again, byte for byte, marked
`Idempotent-Replayed`; the same key with another request gets 422. A retry sent while the
first still runs waits on the row's insert and then gets the first answer; one that finds
the row already there but locked (a retry of a request that failed, raced by another) gets
409 at once. A refusal (4xx) is an answer like any other; a failure (5xx) keeps nothing, so a retry
runs the request again. A replay is in the language of the first answer, and says so in
its ``Content-Language``.

The key is stored as its SHA-256 only. The request's fingerprint is an HMAC and the answer
is encrypted with AES-GCM, both under a secret made from the service's ``SECRET_KEY`` and
the key itself, so an answer that carries a token or a webhook's secret is readable only
by the client holding the key (``SECRET_KEY_FALLBACKS`` still open answers kept before a
rotation).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.conf import settings
from django.db import OperationalError, transaction
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone, translation
from drf_spectacular.utils import extend_schema
from psycopg.errors import LockNotAvailable
from rest_framework.request import Request
from rest_framework.views import APIView

from idempotency.keys import (
    HEADER,
    PARAMETER,
    REPLAYED,
    KeyInFlight,
    key_check,
    key_reused,
    oldest_kept,
)
from idempotency.models import KeyedAnswer

V = TypeVar("V", bound=APIView)
Handler = Callable[..., HttpResponseBase]

# Headers DRF sets again on every response it finalises: not part of the kept answer.
_SET_BY_DRF = frozenset({"allow", "vary"})
_NONCE_BYTES = 12


def idempotent(handler: Handler) -> Handler:
    """Give a view's write method (``post``, ``put``, ``patch``, ``delete``) its answer once
    per Idempotency-Key, and the header in the schema. Without the header, the method runs
    as it is."""

    @wraps(handler)
    def once(view: APIView, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        key = request.headers.get(HEADER)
        if key is None:
            return handler(view, request, *args, **kwargs)
        key_check(key)
        form, secrets = _request_form(request), _secrets(key)
        user = request.user if request.user.is_authenticated else None
        digest = hashlib.sha256(key.encode()).hexdigest()
        fresh = KeyedAnswer(
            user=user,
            key_digest=digest,
            fingerprint=_fingerprint(secrets[0], form),
            created_at=timezone.now(),
        )
        with transaction.atomic():
            KeyedAnswer.objects.bulk_create([fresh], ignore_conflicts=True)
            claimed = _claim(user, digest)
            secret = _secret_of(claimed, secrets, form)
            if claimed.status_code is not None:
                return _replay(claimed, secret)
            response = _first_answer(handler, view, request, args, kwargs)
            if response.status_code < 500:
                _keep(claimed, response, secret)
            return response

    vars(once)["idempotent"] = True
    decorated: Handler = extend_schema(parameters=[PARAMETER])(once)
    return decorated


def is_idempotent(handler: object) -> bool:
    """Whether a view method answers once per Idempotency-Key through ``idempotent``."""
    return getattr(handler, "idempotent", False) is True


def _request_form(request: Request) -> bytes:
    """What makes two requests under one key the same request: method, path and query,
    body, and an ``If-Match`` precondition."""
    data = request.data
    body = {k: v for k, v in data.lists()} if hasattr(data, "lists") else data
    parts = [request.method, request.get_full_path(), body, request.headers.get("If-Match")]
    return json.dumps(parts, sort_keys=True, separators=(",", ":")).encode()


def _claim(user: Any, digest: str) -> KeyedAnswer:
    """Lock the key's row for this transaction, or fail at once if another request holds it
    (SQLite has no row locks: there writers are serialised, and the retry finds the answer)."""
    try:
        rows = KeyedAnswer.objects.select_for_update(nowait=True)
        return rows.get(user=user, key_digest=digest)
    except OperationalError as exc:
        if isinstance(exc.__cause__, LockNotAvailable):
            raise KeyInFlight() from None
        raise


def _secrets(key: str) -> list[bytes]:
    """The secret of ``key`` under the current ``SECRET_KEY``, then under each fallback."""
    service_keys = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    return [
        hmac.new(str(k).encode(), b"idempotency-key\0" + key.encode(), hashlib.sha256).digest()
        for k in service_keys
    ]


def _fingerprint(secret: bytes, form: bytes) -> str:
    return hmac.new(secret, form, hashlib.sha256).hexdigest()


def _secret_of(claimed: KeyedAnswer, secrets: list[bytes], form: bytes) -> bytes:
    """The secret the key's answer is kept under, once the request is known to be the key's
    own: a forgotten key is taken by this request; another request is refused."""
    if claimed.created_at <= oldest_kept():
        claimed.fingerprint = _fingerprint(secrets[0], form)
        claimed.created_at, claimed.status_code, claimed.content = timezone.now(), None, None
        claimed.headers = {}
        claimed.save()
        return secrets[0]
    for secret in secrets:
        if hmac.compare_digest(claimed.fingerprint, _fingerprint(secret, form)):
            return secret
    raise key_reused()


def _first_answer(
    handler: Handler, view: APIView, request: Request, args: Any, kwargs: Any
) -> HttpResponseBase:
    """The handler's answer, rendered; a refusal is answered as DRF answers it, with the
    handler's changes rolled back to its savepoint."""
    try:
        with transaction.atomic():
            response = handler(view, request, *args, **kwargs)
    except Exception as exc:  # DRF's handler answers API errors and raises the rest again
        response = view.handle_exception(exc)
    # DRF finalises any response (its stubs name only its own).
    response = view.finalize_response(request, response, *args, **kwargs)  # type: ignore[arg-type]
    render = getattr(response, "render", None)
    if callable(render):
        render()
    return response


def _keep(claimed: KeyedAnswer, response: HttpResponseBase, secret: bytes) -> None:
    assert isinstance(response, HttpResponse)
    nonce = os.urandom(_NONCE_BYTES)
    sealed = AESGCM(secret).encrypt(nonce, response.content, claimed.key_digest.encode())
    claimed.status_code, claimed.content = response.status_code, nonce + sealed
    claimed.headers = {k: v for k, v in response.items() if k.lower() not in _SET_BY_DRF}
    # The language the answer was written in: a replay says it, whatever the retry asks for.
    claimed.headers.setdefault("Content-Language", translation.get_language())
    claimed.save(update_fields=["status_code", "content", "headers"])


def _replay(claimed: KeyedAnswer, secret: bytes) -> HttpResponse:
    assert claimed.status_code is not None and claimed.content is not None
    kept = bytes(claimed.content)
    content = AESGCM(secret).decrypt(
        kept[:_NONCE_BYTES], kept[_NONCE_BYTES:], claimed.key_digest.encode()
    )
    response = HttpResponse(content, status=claimed.status_code)
    for name, value in {**claimed.headers, **REPLAYED}.items():
        response[name] = value
    return response


def keyed_answers_forget() -> int:
    """Delete the keys older than ``IDEMPOTENCY_KEY_HOURS``; how many."""
    deleted = KeyedAnswer.objects.filter(created_at__lte=oldest_kept()).delete()[0]
    return deleted
