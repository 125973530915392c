"""What recording a notification needs to know of its user, in one query or none.

A user's preferences row (or none: the defaults) and whether they have any active webhook
endpoint or push device, so that the endpoints and devices are read only for the users
who have some. Most players have neither. ``recipient_of`` reads it in one query whose
SQL text is built once per process (see ``ttr_service.rows``), unless it was read with
the user: a move reads it for every seated player along with the seats it locks
(``games.loading``, through ``select_sql`` and ``join_sql``), so telling the next player
that it is their turn costs no query of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from ttr_service.rows import Columns, column, fetch, table

from .models import Device, Preference, WebhookEndpoint
from .preferences import Preferences, preferences_from

_PREFERENCE: Columns[Preference] = Columns(Preference, "np")
# The preference columns and the two flags.
WIDTH = _PREFERENCE.width + 2
_PRELOADED = "_notification_recipient"


@dataclass(frozen=True)
class Recipient:
    row: Preference | None  # None: no row stored, the defaults apply
    has_webhooks: bool  # an active endpoint, whichever kinds it takes
    has_devices: bool  # an active push device

    @cached_property
    def preferences(self) -> Preferences:
        return preferences_from(self.row)


def _active(model: type[WebhookEndpoint] | type[Device], alias: str, user: str) -> str:
    return (
        f"EXISTS (SELECT 1 FROM {table(model)} {alias} WHERE {alias}.{column(model, 'user')} = "
        f"{user} AND {alias}.{column(model, 'active')} = %s)"
    )


def select_sql(user: str) -> tuple[str, list[Any]]:
    """The select list of a user's recipient data, for the user key ``user`` (a column or
    a placeholder; ``join_sql`` must join the same), and the parameters it takes."""
    sql = (
        f"{_PREFERENCE.sql()}, {_active(WebhookEndpoint, 'nw', user)}, "
        f"{_active(Device, 'nd', user)}"
    )
    return sql, [True, True]


def join_sql(user: str) -> str:
    return f"LEFT JOIN {table(Preference)} np ON np.{column(Preference, 'user')} = {user}"


def load(row: Sequence[Any], start: int = 0) -> Recipient:
    """The recipient data in ``row[start:start + WIDTH]``."""
    end = start + _PREFERENCE.width
    return Recipient(_PREFERENCE.load(row, start), bool(row[end]), bool(row[end + 1]))


def preload(user: AbstractBaseUser, recipient: Recipient) -> None:
    """Keep what was read of ``user`` with it, for ``recipient_of`` within this
    transaction."""
    setattr(user, _PRELOADED, recipient)


@cache
def _sql() -> str:
    select, _ = select_sql("%s")
    return f"SELECT {select} FROM (SELECT 1 AS one) x {join_sql('%s')}"


def recipient_of(user: AbstractBaseUser) -> Recipient:
    preloaded = getattr(user, _PRELOADED, None)
    if isinstance(preloaded, Recipient):
        return preloaded
    return load(fetch(_sql(), [user.pk, True, user.pk, True, user.pk])[0])
