"""Firebase Cloud Messaging over the HTTP v1 API.

Authentication is the OAuth2 service-account grant: a JWT signed RS256 with the service
account's key is exchanged at its token URI for an access token, which is kept until a
minute before it expires. One message is one ``POST .../messages:send`` to one token.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import jwt

from .push_credentials import ServiceAccount
from .push_message import PushMessage
from .results import DeliveryResult

logger = logging.getLogger(__name__)

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
SEND_URL = "https://fcm.googleapis.com/v1/projects/{project}/messages:send"
JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
ASSERTION_LIFETIME = 3600  # the longest Google accepts
EXPIRY_MARGIN = 60  # renew this long before the access token runs out


class _Refused(Exception):
    def __init__(self, result: DeliveryResult) -> None:
        super().__init__(result.error)
        self.result = result


def _transient(status: int) -> bool:
    return status == 429 or status >= 500


def data_fields(payload: dict[str, Any]) -> dict[str, str]:
    """FCM's ``data`` takes strings only: nested values travel as JSON text."""
    return {
        key: value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
        for key, value in payload.items()
    }


def _error_of(response: httpx.Response) -> tuple[str, str, list[str]]:
    """(FCM error code or status, message, fields at fault) from an error body."""
    try:
        error = response.json().get("error") or {}
    except (ValueError, AttributeError):
        return "", response.text[:200], []
    code = str(error.get("status") or "")
    fields: list[str] = []
    for detail in error.get("details") or []:
        if not isinstance(detail, dict):
            continue
        code = str(detail.get("errorCode") or code)
        for violation in detail.get("fieldViolations") or []:
            if isinstance(violation, dict):
                fields.append(str(violation.get("field", "")))
    return code, str(error.get("message") or ""), fields


def _token_at_fault(message: str, fields: list[str]) -> bool:
    return "message.token" in fields or "registration token" in message.lower()


class FcmTransport:
    """Sends to the devices registered with ``platform: fcm``."""

    def __init__(
        self,
        account: ServiceAccount,
        project_id: str,
        *,
        client: httpx.Client | None = None,
        clock: Callable[[], float] = time.time,
        timeout: float = 10.0,
    ) -> None:
        self.account = account
        self.url = SEND_URL.format(project=project_id)
        self._client = client or httpx.Client(timeout=timeout, follow_redirects=False)
        self._clock = clock
        self._lock = threading.Lock()
        self._access_token: str | None = None
        self._expires_at = 0.0

    # ------------------------------------------------------------------ the access token
    def assertion(self, now: int) -> str:
        """The signed JWT that the token URI exchanges for an access token."""
        claims = {
            "iss": self.account.client_email,
            "scope": SCOPE,
            "aud": self.account.token_uri,
            "iat": now,
            "exp": now + ASSERTION_LIFETIME,
        }
        headers = {"kid": self.account.private_key_id} if self.account.private_key_id else None
        return jwt.encode(claims, self.account.private_key, algorithm="RS256", headers=headers)

    def access_token(self) -> str:
        with self._lock:
            now = self._clock()
            if self._access_token is None or now >= self._expires_at:
                self._access_token, self._expires_at = self._fetch_token(int(now))
            return self._access_token

    def forget_token(self) -> None:
        with self._lock:
            self._access_token = None

    def _fetch_token(self, now: int) -> tuple[str, float]:
        form = {"grant_type": JWT_BEARER_GRANT, "assertion": self.assertion(now)}
        try:
            response = self._client.post(self.account.token_uri, data=form)
        except httpx.HTTPError as exc:
            raise _Refused(
                DeliveryResult.failed(f"FCM token: {type(exc).__name__}: {exc}")
            ) from None
        if not response.is_success:
            raise _Refused(
                DeliveryResult.failed(
                    f"FCM token: HTTP {response.status_code}: {response.text[:200]}",
                    response.status_code,
                    retry=_transient(response.status_code),
                )
            )
        try:
            body = response.json()
            token = str(body["access_token"])
            lifetime = float(body.get("expires_in", ASSERTION_LIFETIME))
        except (ValueError, KeyError, TypeError):
            raise _Refused(
                DeliveryResult.failed("FCM token: the answer holds no access_token", retry=False)
            ) from None
        return token, now + max(lifetime - EXPIRY_MARGIN, 0)

    # ----------------------------------------------------------------------- sending
    def request_body(self, message: PushMessage) -> dict[str, Any]:
        return {
            "message": {
                "token": message.token,
                "notification": {"title": message.title, "body": message.body},
                "data": data_fields(message.data),
            }
        }

    def send(self, message: PushMessage) -> DeliveryResult:
        try:
            token = self.access_token()
        except _Refused as refused:
            return refused.result
        try:
            response = self._client.post(
                self.url,
                json=self.request_body(message),
                headers={"authorization": f"Bearer {token}"},
            )
        except httpx.HTTPError as exc:
            return DeliveryResult.failed(f"FCM: {type(exc).__name__}: {exc}")
        return self._outcome(response)

    def _outcome(self, response: httpx.Response) -> DeliveryResult:
        status = response.status_code
        if response.is_success:
            return DeliveryResult.ok(status)
        code, text, fields = _error_of(response)
        error = f"FCM HTTP {status} {code}: {text}".strip()
        if status == 404 and code in ("UNREGISTERED", "NOT_FOUND"):
            return DeliveryResult.gone_for_good(error, status)
        if status == 400 and code == "INVALID_ARGUMENT" and _token_at_fault(text, fields):
            return DeliveryResult.gone_for_good(error, status)
        if status == 401:  # the access token was refused: fetch a new one next time
            self.forget_token()
            return DeliveryResult.failed(error, status)
        return DeliveryResult.failed(error, status, retry=_transient(status))
