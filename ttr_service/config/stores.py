"""Where data lives: the database, the cache and the Celery broker, from ``DATABASE_URL``
and ``REDIS_URL``, or the embedded default's files under the ``var`` folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ttr_service.config import env


def database(var_dir: Path) -> dict[str, Any]:
    """``DATABASES["default"]``: PostgreSQL from ``DATABASE_URL``, else a SQLite file."""
    found = env.get_database("DATABASE_URL")
    if found is None:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": Path(env.get_str("SQLITE_PATH") or var_dir / "db.sqlite3"),
            "OPTIONS": {
                # A web process and a worker share the file: take the write lock when a
                # transaction starts instead of failing on a lock upgrade, and let readers
                # carry on while one writer works.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL;",
            },
        }
    # Connections are kept between requests (and checked before each one, so a connection
    # the server dropped is replaced instead of failing the next request).
    found["CONN_MAX_AGE"] = env.get_int("DATABASE_CONN_MAX_AGE", default=60, minimum=0)
    found["CONN_HEALTH_CHECKS"] = True
    # Parameters bound by the server, so psycopg prepares a statement run five times on a
    # connection and PostgreSQL plans it once, instead of parsing and planning every query.
    # (Not for a transaction-pooling PgBouncer in front of the database.)
    if env.get_bool("DATABASE_PREPARED_STATEMENTS", default=True):
        found.setdefault("OPTIONS", {}).update(
            {"server_side_binding": True, "prepare_threshold": 5}
        )
    return found


def cache(redis_url: str | None) -> dict[str, Any]:
    """``CACHES["default"]``: Redis, failing open, or one in each process."""
    if redis_url is None:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    return {
        # Throttle counters and rendered game views: while Redis does not answer, reads
        # miss and writes are dropped (ttr_service/storage/cache.py).
        "BACKEND": "ttr_service.storage.cache.FailOpenRedisCache",
        "LOCATION": redis_url,
        "KEY_PREFIX": "ttr",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }


def caches(redis_url: str | None, var_dir: Path) -> dict[str, dict[str, Any]]:
    """``CACHES``: the default one, and ``presence`` (who has a game's stream open,
    ``ttr_service.streams.presence``), which every web process must share: Redis, or
    files under the ``var`` folder."""
    if redis_url is None:
        presence = {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(var_dir / "presence"),
            "OPTIONS": {"MAX_ENTRIES": 10000},
        }
    else:
        presence = {**cache(redis_url), "KEY_PREFIX": "ttr:presence"}
    return {"default": cache(redis_url), "presence": presence}


def broker(redis_url: str | None, var_dir: Path) -> tuple[str, str | None, dict[str, Any]]:
    """Celery's broker: its URL, its transport (None: the URL's own) and its options."""
    if redis_url is not None:
        # An unacknowledged task (its worker died) is delivered again after this many
        # seconds. Deadlines live in the database, not in countdowns, so it may be short.
        timeout = env.get_int("CELERY_VISIBILITY_TIMEOUT", default=3600, minimum=1)
        return redis_url, None, {"visibility_timeout": timeout}
    folders = {name: var_dir / "celery" / name for name in ("messages", "processed", "control")}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    # kombu's filesystem transport, but each message is written whole before it is seen and
    # a file that cannot be read is set aside in var/celery/unreadable/ instead of stopping
    # the worker (ttr_service/tasks/broker_files.py). Producer and worker sit on one
    # machine, so both read and write the same folder.
    options = {
        "data_folder_in": str(folders["messages"]),
        "data_folder_out": str(folders["messages"]),
        "processed_folder": str(folders["processed"]),
        "control_folder": str(folders["control"]),
        "store_processed": False,
        # The transport polls its folder; the default second would delay every AI reply.
        "polling_interval": 0.1,
    }
    return "filesystem://", "ttr_service.tasks.broker_files:Transport", options
