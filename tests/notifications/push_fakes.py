"""Keys made in the test, and a fake push service behind ``httpx.MockTransport``."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from notifications.push_message import PushMessage

Answer = httpx.Response | Exception


def pem(key: Any) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def ec_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def service_account_json(key: rsa.RSAPrivateKey, **changes: Any) -> dict[str, Any]:
    data = {
        "type": "service_account",
        "project_id": "ttr-test",
        "private_key_id": "key-1",
        "private_key": pem(key),
        "client_email": "push@ttr-test.iam.gserviceaccount.com",
        "token_uri": "https://oauth2.example.test/token",
    }
    data.update(changes)
    return data


@dataclass
class FakeService:
    """Answers requests from queues per URL; the last answer of a queue repeats."""

    answers: dict[str, list[Answer]] = field(default_factory=dict)
    requests: list[httpx.Request] = field(default_factory=list)

    def answer(self, url: str, *answers: Answer) -> None:
        self.answers[url] = list(answers)

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        queue = self.answers[str(request.url)]
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(answer, Exception):
            raise answer
        return answer

    def client(self) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(self.handle))

    def to(self, url: str) -> list[httpx.Request]:
        return [r for r in self.requests if str(r.url) == url]


def form(request: httpx.Request) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(request.content.decode()).items()}


def body(request: httpx.Request) -> Any:
    return json.loads(request.content)


def json_response(status: int, data: Any) -> httpx.Response:
    return httpx.Response(status, json=data)


class Clock:
    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def message(platform: str = "fcm", token: str = "device-token-1") -> PushMessage:
    return PushMessage(
        platform=platform,
        token=token,
        title="It is your turn (game 9)",
        body="It is your turn (game 9).",
        data={
            "type": "your_turn",
            "timestamp": "2026-11-29T12:00:00Z",
            "data": {"notification_id": 5, "game_id": 9, "seat": 1},
        },
    )


def fcm_error(status: int, code: str, text: str, field: str | None = None) -> httpx.Response:
    details: list[dict[str, Any]] = [
        {"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code}
    ]
    if field is not None:
        details.append(
            {
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [{"field": field, "description": text}],
            }
        )
    status_names = {400: "INVALID_ARGUMENT", 404: "NOT_FOUND", 401: "UNAUTHENTICATED"}
    return json_response(
        status,
        {
            "error": {
                "code": status,
                "message": text,
                "status": status_names.get(status, code),
                "details": details,
            }
        },
    )


Handler = Callable[[httpx.Request], httpx.Response]
