"""What recording a notification needs to know of its user, in one query.

A user's preferences row (or none: the defaults) and whether they have any active webhook
endpoint or push device, so that the endpoints and devices are read only for the users
who have some. Most players have neither, and a move that ends a turn notifies one of
them; the SQL text is built once per process (see ``ttr_service.rows``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.contrib.auth.models import AbstractBaseUser

from ttr_service.rows import Columns, column, fetch, table

from .models import Device, Preference, WebhookEndpoint
from .preferences import Preferences, preferences_from

_PREFERENCE: Columns[Preference] = Columns(Preference, "p")


@dataclass(frozen=True)
class Recipient:
    preferences: Preferences
    has_webhooks: bool  # an active endpoint, whichever kinds it takes
    has_devices: bool  # an active push device


def _active(model: type[WebhookEndpoint] | type[Device], alias: str) -> str:
    return (
        f"EXISTS (SELECT 1 FROM {table(model)} {alias} WHERE {alias}.{column(model, 'user')} = %s "
        f"AND {alias}.{column(model, 'active')} = %s)"
    )


@cache
def _sql() -> str:
    return (
        f"SELECT {_PREFERENCE.sql()}, {_active(WebhookEndpoint, 'w')}, {_active(Device, 'd')} "
        f"FROM (SELECT 1 AS one) x LEFT JOIN {table(Preference)} p "
        f"ON p.{column(Preference, 'user')} = %s"
    )


def recipient_of(user: AbstractBaseUser) -> Recipient:
    row = fetch(_sql(), [user.pk, True, user.pk, True, user.pk])[0]
    width = _PREFERENCE.width
    return Recipient(
        preferences=preferences_from(_PREFERENCE.load(row)),
        has_webhooks=bool(row[width]),
        has_devices=bool(row[width + 1]),
    )
