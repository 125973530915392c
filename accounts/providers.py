"""Reading the ID token a mobile app got from Sign in with Apple or Google.

A token is taken when its signature verifies with a key the provider publishes (its JWKS,
read with PyJWT's ``PyJWKClient`` and kept for an hour; a key id not among them reads the
set again), its issuer is the provider's, its audience one of the app's client ids, it has
not expired (30 seconds of clock skew allowed), and its ``nonce`` claim matches the nonce
the app sent:

- Apple: the app gives Apple the SHA-256 of its raw nonce, in lower-case hex, and Apple
  puts that in the token; the app sends the raw nonce here, and its SHA-256 is compared.
- Google: the token carries the nonce as the app gave it; it is compared as sent.

A token is taken once: its digest is kept in the cache until it expires, and the same token
again is refused (while Redis does not answer, a second use is not caught). Settings:
``SIGN_IN_PROVIDERS`` (``APPLE_CLIENT_IDS``, ...).
"""

from __future__ import annotations

import hashlib
import threading
import time
from dataclasses import dataclass
from hmac import compare_digest
from typing import Any

import jwt
from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from knox.settings import knox_settings

from accounts.models import Provider
from ttr_service.config.account_env import SignInProvider
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

ALGORITHMS = ["RS256", "ES256"]
LEEWAY_SECONDS = 30
KEYS_KEPT_SECONDS = 3600
KEYS_TIMEOUT_SECONDS = 5
SUBJECT_MAX_LENGTH = 255  # what ProviderIdentity.subject holds; Apple's and Google's are short
NONCE_HASHED: dict[str, bool] = {Provider.APPLE: True, Provider.GOOGLE: False}
_REFUSALS = {
    jwt.ExpiredSignatureError: gettext_lazy(
        "The ID token has expired; sign in with the provider again."
    ),
    jwt.InvalidAudienceError: gettext_lazy(
        "The ID token was issued for another app (its audience)."
    ),
    jwt.InvalidIssuerError: gettext_lazy("The ID token was not issued by the provider."),
    jwt.InvalidSignatureError: gettext_lazy("The ID token's signature does not verify."),
    jwt.ImmatureSignatureError: gettext_lazy("The ID token is not valid yet."),
    jwt.MissingRequiredClaimError: gettext_lazy("The ID token lacks a claim it must have."),
}


@dataclass(frozen=True)
class Claims:
    """What the service takes from a verified ID token."""

    provider: str
    subject: str
    email: str | None
    email_verified: bool
    given_name: str | None


_clients: dict[str, jwt.PyJWKClient] = {}
_clients_lock = threading.Lock()


def _keys(url: str) -> jwt.PyJWKClient:
    with _clients_lock:
        client = _clients.get(url)
        if client is None:
            client = jwt.PyJWKClient(
                url, cache_jwk_set=True, lifespan=KEYS_KEPT_SECONDS, timeout=KEYS_TIMEOUT_SECONDS
            )
            _clients[url] = client
        return client


def provider_settings(provider: str) -> SignInProvider:
    """The provider's settings, or ``PROVIDER_NOT_CONFIGURED`` while no client id is set."""
    found: SignInProvider | None = settings.SIGN_IN_PROVIDERS.get(provider)
    if found is None or not found.client_ids:
        raise ServiceError(
            Code.PROVIDER_NOT_CONFIGURED,
            _("This service does not sign in with %(provider)s.")
            % {"provider": Provider(provider).label},
        )
    return found


def refused(detail: str) -> ServiceError:
    error = ServiceError(Code.PROVIDER_TOKEN_INVALID, detail)
    error.auth_header = knox_settings.AUTH_HEADER_PREFIX  # DRF sends it as WWW-Authenticate
    return error


def _signing_key(config: SignInProvider, id_token: str) -> Any:
    try:
        return _keys(config.jwks_url).get_signing_key_from_jwt(id_token).key
    except jwt.PyJWKClientConnectionError:
        error = ServiceError(
            Code.PROVIDER_UNAVAILABLE,
            _("The provider's signing keys could not be read; try again shortly."),
        )
        error.wait = KEYS_TIMEOUT_SECONDS
        raise error from None
    except (jwt.PyJWKClientError, jwt.PyJWKSetError):
        raise refused(_("No key the provider publishes signed this ID token.")) from None
    except jwt.PyJWTError:
        raise refused(_("The ID token is not a JWT.")) from None


def _decoded(config: SignInProvider, id_token: str) -> dict[str, Any]:
    key = _signing_key(config, id_token)
    try:
        claims: dict[str, Any] = jwt.decode(
            id_token,
            key,
            algorithms=ALGORITHMS,
            audience=list(config.client_ids),
            issuer=list(config.issuers),
            leeway=LEEWAY_SECONDS,
            options={"require": ["exp", "iat", "iss", "aud", "sub"]},
        )
    except jwt.PyJWTError as error:
        detail = next((t for kind, t in _REFUSALS.items() if isinstance(error, kind)), None)
        raise refused(str(detail or _("The ID token does not verify."))) from None
    return claims


def _nonce_check(provider: str, claims: dict[str, Any], nonce: str) -> None:
    expected = hashlib.sha256(nonce.encode()).hexdigest() if NONCE_HASHED[provider] else nonce
    stated = claims.get("nonce")
    if not isinstance(stated, str) or not compare_digest(stated.encode(), expected.encode()):
        raise refused(_("The ID token's nonce is not the one sent with it."))


def _once(provider: str, id_token: str, expires: Any) -> None:
    digest = hashlib.sha256(id_token.encode()).hexdigest()
    left = max(1, int(float(expires) - time.time()) + LEEWAY_SECONDS)
    key = f"accounts:id-token:{provider}:{digest}"
    # A cache that does not answer adds nothing and holds nothing: the token is let through,
    # as the throttles let requests through then.
    if not cache.add(key, 1, timeout=left) and cache.get(key) is not None:
        raise refused(_("This ID token was used already; sign in with the provider again."))


def _flag(value: Any) -> bool:
    """A boolean claim, which Apple sends as the text "true" or "false"."""
    return value is True or value == "true"


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def id_token_read(provider: str, id_token: str, nonce: str) -> Claims:
    """The claims of a provider's ID token, once it is verified; ``PROVIDER_TOKEN_INVALID``
    (or ``PROVIDER_NOT_CONFIGURED``, ``PROVIDER_UNAVAILABLE``) otherwise."""
    config = provider_settings(provider)
    claims = _decoded(config, id_token)
    _nonce_check(provider, claims, nonce)
    subject = _text(claims.get("sub"))
    if subject is None or len(subject) > SUBJECT_MAX_LENGTH:
        raise refused(_("The ID token names nobody (no usable `sub`)."))
    _once(provider, id_token, claims["exp"])
    return Claims(
        provider=provider,
        subject=subject,
        email=_text(claims.get("email")),
        email_verified=_flag(claims.get("email_verified")),
        given_name=_text(claims.get("given_name")),
    )
