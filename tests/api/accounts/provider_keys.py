"""A stand-in for Apple's and Google's sign-in: a signing key made here, its JWKS served by
a small HTTP server on 127.0.0.1, and ID tokens signed with it by PyJWT.

``KeyServer`` serves ``/keys`` (the JWK set of the keys it holds) in a thread, and counts
the requests, so a test sees when the service reads the keys again.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from ttr_service.config.account_env import SignInProvider

APPLE_ISSUER = "https://appleid.apple.com"
GOOGLE_ISSUER = "https://accounts.google.com"
APPLE_CLIENT = "org.example.ttr"
GOOGLE_CLIENT = "1234-abc.apps.googleusercontent.com"


class SigningKey:
    def __init__(self, kid: str | None = None) -> None:
        self.kid = kid or uuid.uuid4().hex[:10]
        self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    def jwk(self) -> dict[str, Any]:
        public: dict[str, Any] = json.loads(
            jwt.algorithms.RSAAlgorithm.to_jwk(self.private.public_key())
        )
        return {**public, "kid": self.kid, "use": "sig", "alg": "RS256"}

    def sign(self, claims: dict[str, Any], *, kid: str | None = None) -> str:
        return jwt.encode(claims, self.private, algorithm="RS256", headers={"kid": kid or self.kid})


class KeyServer:
    """Serves the JWK set of ``keys`` at ``url``; ``keys`` may be changed while it runs."""

    def __init__(self, *keys: SigningKey) -> None:
        self.keys = list(keys)
        self.requests = 0
        self.failing = False
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.requests += 1
                if server.failing:
                    self.send_error(503)
                    return
                body = json.dumps({"keys": [key.jwk() for key in server.keys]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/keys"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def provider_settings(keys_url: str) -> dict[str, SignInProvider]:
    """Both providers configured, their keys at ``keys_url``."""
    return {
        "apple": SignInProvider((APPLE_CLIENT,), (APPLE_ISSUER,), keys_url),
        "google": SignInProvider(
            (GOOGLE_CLIENT,), (GOOGLE_ISSUER, "accounts.google.com"), keys_url
        ),
    }


def apple_nonce(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def claims_for(
    provider: str,
    *,
    sub: str = "001234.abcdef",
    nonce: str = "raw-nonce-1",
    email: str | None = "alice@example.org",
    email_verified: Any = True,
    lifetime: int = 600,
    **extra: Any,
) -> dict[str, Any]:
    """The claims of an ID token as the provider would issue it for the test app: Apple's
    carries the SHA-256 of the raw nonce, and a boolean as text; Google's the nonce as
    given."""
    now = int(time.time())
    apple = provider == "apple"
    claims: dict[str, Any] = {
        "iss": APPLE_ISSUER if apple else GOOGLE_ISSUER,
        "aud": APPLE_CLIENT if apple else GOOGLE_CLIENT,
        "sub": sub,
        "iat": now,
        "exp": now + lifetime,
        "nonce": apple_nonce(nonce) if apple else nonce,
    }
    if email is not None:
        claims["email"] = email
        claims["email_verified"] = (
            str(email_verified).lower()
            if apple and isinstance(email_verified, bool)
            else email_verified
        )
    claims.update(extra)
    return claims
