"""Account settings: e-mail verification, password reset, and sign-in with Apple and Google.

Read here, with the strict readers of ``env``, and kept in settings as frozen dataclasses,
so ``settings.py`` names each group once and the accounts app reads typed values. A bad
value stops startup with ``ImproperlyConfigured`` naming its variable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from ttr_service.config import env

_RATE = re.compile(r"([1-9][0-9]*)/(s|sec|second|m|min|minute|h|hour|d|day)")
_PERIOD_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rate:
    """At most ``count`` within ``seconds``, counted from the first of them."""

    count: int
    seconds: int

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds}s"


@dataclass(frozen=True)
class AccountEmail:
    """E-mail verification codes and password reset messages."""

    code_hours: int
    """How long a verification code stays good."""
    code_attempts: int
    """Wrong codes allowed before a code is spent."""
    code_rates: tuple[Rate, ...]
    """Verification messages one account may ask for."""
    verify_url: str
    """The link form of a code: ``{code}`` is replaced by it."""
    reset_url: str
    """The link of a reset message: ``{token}`` is replaced by its secret."""
    reset_address_rates: tuple[Rate, ...]
    """Reset requests naming one address, whether or not an account has it."""
    reset_ip_rates: tuple[Rate, ...]
    """Reset requests from one client address."""


@dataclass(frozen=True)
class SignInProvider:
    """What an ID token of one provider must say to be taken: signed by a key of
    ``jwks_url``, issued by one of ``issuers``, for one of ``client_ids``."""

    client_ids: tuple[str, ...]
    issuers: tuple[str, ...]
    jwks_url: str


def _fail(name: str, problem: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"Environment variable {name}: {problem}")


def get_rates(name: str, default: str) -> tuple[Rate, ...]:
    """Comma-separated rates such as ``1/min,5/hour``."""
    rates = []
    for item in env.get_list(name, default.split(",")):
        match = _RATE.fullmatch(item)
        if match is None:
            raise _fail(
                name, f"expected rates like 1/min,5/hour (<count>/<sec|min|hour|day>); got {item!r}"
            )
        rates.append(Rate(int(match[1]), _PERIOD_SECONDS[match[2][0]]))
    return tuple(rates)


def get_link(name: str, default: str, placeholder: str) -> str:
    """A URL template holding ``placeholder`` once, such as ``https://…?code={code}``."""
    value = env.get_str(name) or default
    if value.count(placeholder) != 1 or not urlsplit(value).scheme:
        raise _fail(name, f"expected an absolute URL holding {placeholder} once; got {value!r}")
    return value


def email_settings() -> AccountEmail:
    return AccountEmail(
        code_hours=env.get_int("EMAIL_CODE_HOURS", default=24, minimum=1),
        code_attempts=env.get_int("EMAIL_CODE_ATTEMPTS", default=5, minimum=1),
        code_rates=get_rates("THROTTLE_EMAIL_CODE_RATES", "1/min,5/hour"),
        verify_url=get_link("EMAIL_VERIFY_URL", "ttr://verify-email?code={code}", "{code}"),
        reset_url=get_link("PASSWORD_RESET_URL", "ttr://reset-password?token={token}", "{token}"),
        reset_address_rates=get_rates("THROTTLE_RESET_ADDRESS_RATES", "3/hour"),
        reset_ip_rates=get_rates("THROTTLE_RESET_IP_RATES", "20/hour"),
    )


def _url(name: str, default: str) -> str:
    value = env.get_str(name) or default
    if urlsplit(value).scheme not in ("http", "https") or not urlsplit(value).netloc:
        raise _fail(name, f"expected an http:// or https:// URL; got {value!r}")
    return value


def provider_settings() -> dict[str, SignInProvider]:
    """Apple's and Google's: each signs in only once its client ids are set."""
    return {
        "apple": SignInProvider(
            client_ids=tuple(env.get_list("APPLE_CLIENT_IDS", [])),
            issuers=tuple(env.get_list("APPLE_ISSUERS", ["https://appleid.apple.com"])),
            jwks_url=_url("APPLE_JWKS_URL", "https://appleid.apple.com/auth/keys"),
        ),
        "google": SignInProvider(
            client_ids=tuple(env.get_list("GOOGLE_CLIENT_IDS", [])),
            issuers=tuple(
                env.get_list(
                    "GOOGLE_ISSUERS", ["https://accounts.google.com", "accounts.google.com"]
                )
            ),
            jwks_url=_url("GOOGLE_JWKS_URL", "https://www.googleapis.com/oauth2/v3/certs"),
        ),
    }
