"""Strict readers for settings taken from the environment.

django-environ does the reading; the checks here exist because its own casts are lenient
(``DEBUG=maybe`` reads as false, a ``DATABASE_URL`` without a scheme reads as an empty
config). Every bad value stops startup with ``ImproperlyConfigured`` naming the variable.
An empty value counts as unset, so ``VAR=`` in a shell or CI file restores the default.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import SplitResult, urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

_env = environ.Env()
# A value starting with "$" is read by django-environ as a reference to another variable;
# "\$" at the start keeps a literal dollar sign.
_env.escape_proxy = True

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})

POSTGRES_SCHEMES = frozenset({"postgres", "postgresql", "pgsql"})
REDIS_SCHEMES = frozenset({"redis", "rediss"})


def _fail(name: str, problem: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"Environment variable {name}: {problem}")


def get_str(name: str) -> str | None:
    """The stripped value of ``name``, or None when it is unset or empty."""
    value = _env.str(name, default="").strip()
    return value or None


def get_bool(name: str, default: bool) -> bool:
    value = get_str(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise _fail(name, f"expected one of true/false, yes/no, on/off, 1/0; got {value!r}")


def get_int(name: str, default: int, *, minimum: int = 0) -> int:
    value = get_str(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise _fail(name, f"expected a whole number; got {value!r}") from None
    if number < minimum:
        raise _fail(name, f"must be at least {minimum}; got {number}")
    return number


def get_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    value = get_str(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def _redacted(url: SplitResult) -> str:
    """The URL with any password replaced, safe to show in an error message."""
    if url.password is None:
        return url.geturl()
    userinfo, _, hostinfo = url.netloc.rpartition("@")
    user = userinfo.split(":", 1)[0]
    return url._replace(netloc=f"{user}:***@{hostinfo}").geturl()


def _split_url(name: str, value: str, schemes: frozenset[str], example: str) -> SplitResult:
    url = urlsplit(value)
    shown = _redacted(url)
    if url.scheme not in schemes:
        allowed = ", ".join(f"{s}://" for s in sorted(schemes))
        raise _fail(name, f"expected a URL starting with {allowed} like {example}; got {shown!r}")
    try:
        url.port  # noqa: B018 - urlsplit checks the port only when it is read
    except ValueError:
        raise _fail(name, f"the port is not a number between 0 and 65535 in {shown!r}") from None
    return url


def get_database(name: str) -> dict[str, Any] | None:
    """A Django DATABASES entry for a PostgreSQL URL, or None when ``name`` is unset."""
    value = get_str(name)
    if value is None:
        return None
    example = "postgres://user:password@127.0.0.1:5432/ttr"
    url = _split_url(name, value, POSTGRES_SCHEMES, example)
    if not url.path.strip("/"):
        raise _fail(name, f"the URL names no database; expected a path like {example}")
    config: dict[str, Any] = environ.Env.db_url_config(value)
    return config


def get_redis_url(name: str) -> str | None:
    value = get_str(name)
    if value is None:
        return None
    url = _split_url(name, value, REDIS_SCHEMES, "redis://127.0.0.1:6379/0")
    database = url.path.strip("/")
    if database and not database.isdigit():
        raise _fail(name, f"the database after the host must be a number; got {database!r}")
    return value


_RATE = re.compile(r"[1-9][0-9]*/(s|sec|second|m|min|minute|h|hour|d|day)")
_DOTTED_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")


def get_rate(name: str, default: str) -> str:
    """A throttle rate: ``<count>/<sec|min|hour|day>``."""
    value = get_str(name) or default
    if not _RATE.fullmatch(value):
        raise _fail(name, f"expected <count>/<sec|min|hour|day>, such as 1200/min; got {value!r}")
    return value


def get_seconds_list(name: str, default: list[str]) -> list[int]:
    """Positive whole seconds separated by commas, longest first."""
    values = get_list(name, default)
    if not all(v.isdigit() and int(v) > 0 for v in values):
        raise _fail(
            name,
            "expected positive whole seconds separated by commas, such as 86400,3600; got "
            f"{','.join(values)!r}",
        )
    return sorted({int(v) for v in values}, reverse=True)


def get_dotted_path(name: str, default: str, aliases: frozenset[str] = frozenset()) -> str:
    """A dotted Python path, or one of ``aliases``."""
    value = get_str(name) or default
    if value not in aliases and not _DOTTED_PATH.fullmatch(value):
        allowed = "".join(f"{a}, " for a in sorted(aliases))
        raise _fail(
            name, f"expected {allowed}a dotted Python path such as {default}; got {value!r}"
        )
    return value
