"""Settings parsing, each case in a fresh interpreter so this process keeps its settings."""

from __future__ import annotations

import hashlib
import subprocess
from typing import Any

import pytest

from tests import settings_env
from tests.settings_env import ROOT

# Variables the settings read; each case starts with none of them set.
SETTINGS_VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "REDIS_URL",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "TRUST_X_FORWARDED_PROTO",
)

STRONG_KEY = "k" * 20 + "4f9d2c7e1b8a6035f2d9c4e7a1b3d5f8e0c2a4b6d8f1e3"

REPORT = """
import hashlib, json
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "SECRET_KEY_SHA256": hashlib.sha256(settings.SECRET_KEY.encode()).hexdigest(),
    "DB_ENGINE": db["ENGINE"],
    "DB_NAME": str(db["NAME"]),
    "DB_HOST": db.get("HOST"),
    "DB_PORT": db.get("PORT"),
    "CACHE_BACKEND": settings.CACHES["default"]["BACKEND"],
    "CACHE_LOCATION": settings.CACHES["default"].get("LOCATION"),
    "BROKER_URL": settings.CELERY_BROKER_URL,
    "ACKS_LATE": settings.CELERY_TASK_ACKS_LATE,
    "REJECT_ON_WORKER_LOST": settings.CELERY_TASK_REJECT_ON_WORKER_LOST,
    "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
    "CSRF_COOKIE_SECURE": settings.CSRF_COOKIE_SECURE,
    "SECURE_SSL_REDIRECT": settings.SECURE_SSL_REDIRECT,
    "SECURE_HSTS_SECONDS": settings.SECURE_HSTS_SECONDS,
}))
"""


def run(args: list[str], **variables: str) -> subprocess.CompletedProcess[str]:
    return settings_env.run(args, SETTINGS_VARIABLES, **variables)


def run_python(code: str, **variables: str) -> subprocess.CompletedProcess[str]:
    return run(["-c", code], **variables)


def load_settings(**variables: str) -> dict[str, Any]:
    return settings_env.printed(run_python(REPORT, **variables))


def startup_error(**variables: str) -> str:
    """The last line of the traceback when loading the settings fails."""
    result = run_python(REPORT, **variables)
    assert result.returncode != 0, f"settings loaded despite {variables}"
    return result.stderr.strip().splitlines()[-1]


def test_it_runs_on_the_embedded_default_with_no_environment() -> None:
    report = load_settings()

    assert report["DEBUG"] is True
    assert report["DB_ENGINE"] == "django.db.backends.sqlite3"
    assert report["DB_NAME"] == str(ROOT / "var" / "db.sqlite3")
    assert report["CACHE_BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert report["BROKER_URL"] == "filesystem://"
    assert report["ACKS_LATE"] is True
    assert report["REJECT_ON_WORKER_LOST"] is True
    assert (ROOT / "var" / "celery" / "messages").is_dir()


def test_it_keeps_one_generated_secret_key_per_checkout() -> None:
    first = load_settings()["SECRET_KEY_SHA256"]
    second = load_settings()["SECRET_KEY_SHA256"]

    stored = (ROOT / "var" / "secret_key").read_text().strip()
    assert first == second == hashlib.sha256(stored.encode()).hexdigest()


def test_the_secret_key_variable_wins_over_the_stored_key() -> None:
    report = load_settings(SECRET_KEY=STRONG_KEY)

    assert report["SECRET_KEY_SHA256"] == hashlib.sha256(STRONG_KEY.encode()).hexdigest()


@pytest.mark.parametrize("value", ["maybe", "2", "ture"])
def test_it_refuses_a_debug_value_that_is_not_a_boolean(value: str) -> None:
    error = startup_error(DEBUG=value)

    assert error.startswith("django.core.exceptions.ImproperlyConfigured:")
    assert "Environment variable DEBUG" in error
    assert repr(value) in error


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("nonsense", "expected a URL starting with"),
        ("mysql://user@127.0.0.1/ttr", "expected a URL starting with"),
        ("sqlite:///var/other.sqlite3", "expected a URL starting with"),
        ("postgres//postgres@127.0.0.1/ttr", "expected a URL starting with"),
        ("postgres://postgres@127.0.0.1:port/ttr", "the port is not a number"),
        ("postgres://postgres@127.0.0.1:99999/ttr", "the port is not a number"),
        ("postgres://postgres@127.0.0.1:5432", "the URL names no database"),
        ("postgres://postgres@127.0.0.1:5432/", "the URL names no database"),
    ],
)
def test_it_refuses_a_malformed_database_url(value: str, problem: str) -> None:
    error = startup_error(DATABASE_URL=value)

    assert error.startswith("django.core.exceptions.ImproperlyConfigured:")
    assert "Environment variable DATABASE_URL" in error
    assert problem in error


def test_it_keeps_the_database_password_out_of_the_error() -> None:
    result = run_python(REPORT, DATABASE_URL="postgres://ttr:hunter2@db.internal:port/ttr")

    assert result.returncode != 0
    assert "Environment variable DATABASE_URL" in result.stderr
    assert "hunter2" not in result.stderr
    assert "ttr:***@db.internal:port" in result.stderr


@pytest.mark.parametrize("value", ["127.0.0.1:6379", "http://127.0.0.1:6379", "redis://h:x/0"])
def test_it_refuses_a_malformed_redis_url(value: str) -> None:
    error = startup_error(REDIS_URL=value)

    assert "Environment variable REDIS_URL" in error


def test_it_refuses_a_bad_hardening_value_even_with_debug_on() -> None:
    error = startup_error(SECURE_HSTS_SECONDS="a year")

    assert "Environment variable SECURE_HSTS_SECONDS" in error


def test_an_empty_value_counts_as_unset() -> None:
    report = load_settings(DEBUG="", DATABASE_URL="", REDIS_URL="")

    assert report["DEBUG"] is True
    assert report["DB_ENGINE"] == "django.db.backends.sqlite3"


def test_database_url_switches_to_postgresql() -> None:
    report = load_settings(DATABASE_URL="postgres://ttr:secret@db.internal:5433/ttr")

    assert report["DB_ENGINE"] == "django.db.backends.postgresql"
    assert (report["DB_HOST"], report["DB_PORT"], report["DB_NAME"]) == ("db.internal", 5433, "ttr")


def test_redis_url_switches_the_cache_and_the_broker_to_redis() -> None:
    report = load_settings(REDIS_URL="redis://127.0.0.1:6379/2")

    assert report["CACHE_BACKEND"] == "ttr_service.storage.cache.FailOpenRedisCache"
    assert report["CACHE_LOCATION"] == "redis://127.0.0.1:6379/2"
    assert report["BROKER_URL"] == "redis://127.0.0.1:6379/2"


def test_it_requires_a_secret_key_when_debug_is_off() -> None:
    error = startup_error(DEBUG="false")

    assert "Environment variable SECRET_KEY" in error


def test_it_hardens_cookies_and_transport_when_debug_is_off() -> None:
    report = load_settings(DEBUG="false", SECRET_KEY=STRONG_KEY)

    assert report["DEBUG"] is False
    assert report["SESSION_COOKIE_SECURE"] is True
    assert report["CSRF_COOKIE_SECURE"] is True
    assert report["SECURE_SSL_REDIRECT"] is True
    assert report["SECURE_HSTS_SECONDS"] == 31_536_000


def test_it_leaves_development_over_plain_http_when_debug_is_on() -> None:
    report = load_settings()

    assert report["SESSION_COOKIE_SECURE"] is False
    assert report["SECURE_SSL_REDIRECT"] is False
    assert report["SECURE_HSTS_SECONDS"] == 0


def test_production_settings_pass_djangos_deployment_checks() -> None:
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DEBUG="false",
        SECRET_KEY=STRONG_KEY,
        ALLOWED_HOSTS="ttr.example.org",
        # Preload stays off by default (joining the browsers' list is hard to undo), and
        # the deployment check warns about exactly that.
        SECURE_HSTS_PRELOAD="true",
    )

    assert result.returncode == 0, result.stderr
