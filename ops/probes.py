"""Cheap checks that the database and the broker answer, each bounded in time."""

from __future__ import annotations

import functools
import logging
import os
from urllib.parse import urlsplit

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from kombu import Connection
from kombu.exceptions import OperationalError as KombuOperationalError

logger = logging.getLogger(__name__)

# Seconds the broker has to accept a connection and answer.
BROKER_TIMEOUT = 1.0
# The transport options that name the filesystem transport's folders.
_FOLDERS = ("data_folder_in", "data_folder_out", "processed_folder", "control_folder")


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            row = cursor.fetchone()
    except DatabaseError:
        logger.exception("Health check: the database did not answer SELECT 1")
        return False
    return row is not None and row[0] == 1


@functools.cache
def _redis(url: str) -> redis.Redis:
    # One client (and its connection pool) per process, reused by every probe.
    return redis.Redis.from_url(
        url, socket_connect_timeout=BROKER_TIMEOUT, socket_timeout=BROKER_TIMEOUT
    )


def _folders_writable(options: dict[str, object]) -> bool:
    folders = {str(options[key]) for key in _FOLDERS if options.get(key)}
    missing = [f for f in sorted(folders) if not os.access(f, os.W_OK | os.X_OK)]
    if missing or not folders:
        logger.error("Health check: broker folders missing or not writable: %s", missing)
        return False
    return True


def broker_answers() -> bool:
    """Redis answers PING; the filesystem transport's folders exist and can be written;
    any other transport accepts a connection (one try)."""
    url = str(settings.CELERY_BROKER_URL)
    scheme = urlsplit(url).scheme
    if scheme == "filesystem":
        return _folders_writable(dict(settings.CELERY_BROKER_TRANSPORT_OPTIONS))
    try:
        if scheme in ("redis", "rediss"):
            return bool(_redis(url).ping())
        with Connection(url, connect_timeout=BROKER_TIMEOUT) as conn:
            # kombu waits any number of seconds; its stubs take whole ones only.
            conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT)  # type: ignore[arg-type]
        return True
    except (redis.RedisError, OSError, KombuOperationalError) as exc:
        logger.error("Health check: the broker did not answer: %s", exc)
        return False
