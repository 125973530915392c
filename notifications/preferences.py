"""Which channels a user wants for each kind, and their quiet hours.

In-app notifications are always recorded. Email and push wait out the quiet hours;
webhooks feed integrations and are never held.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from django.contrib.auth.models import User

from ttr_service.storage import rows

from .models import Channel, Kind, Preference

OPTIONAL_CHANNELS = (Channel.WEBHOOK, Channel.EMAIL, Channel.PUSH)
HELD_IN_QUIET_HOURS = frozenset({Channel.EMAIL, Channel.PUSH})
_EMAIL_BY_DEFAULT = frozenset({Kind.INVITATION, Kind.GAME_OVER, Kind.TIMED_OUT})


def default_channels(kind: str) -> dict[str, bool]:
    return {
        Channel.WEBHOOK: True,
        Channel.EMAIL: kind in _EMAIL_BY_DEFAULT,
        Channel.PUSH: True,
    }


@cache
def known_timezones() -> frozenset[str]:
    return frozenset(available_timezones())


@dataclass(frozen=True)
class QuietHours:
    start: time
    end: time
    timezone: str

    def until(self, now: datetime) -> datetime | None:
        """When the quiet period around ``now`` ends, or None when ``now`` is not quiet."""
        zone = ZoneInfo(self.timezone)
        local = now.astimezone(zone)
        clock = local.time().replace(tzinfo=None)
        if self.start < self.end:
            quiet = self.start <= clock < self.end
            end_day = local.date()
        else:  # the period runs over midnight
            quiet = clock >= self.start or clock < self.end
            end_day = local.date() + timedelta(days=1 if clock >= self.start else 0)
        if not quiet:
            return None
        return datetime.combine(end_day, self.end, tzinfo=zone)


@dataclass(frozen=True)
class Preferences:
    channels: dict[str, dict[str, bool]]
    quiet_hours: QuietHours | None

    def wants(self, kind: str, channel: str) -> bool:
        return self.channels[kind][channel]


def preferences_of(user: User) -> Preferences:
    found = rows.select(Preference, user=user.pk)
    return preferences_from(found[0] if found else None)


def preferences_from(row: Preference | None) -> Preferences:
    """The preferences a user's stored row (None: no row, the defaults) stands for."""
    stored: dict[str, Any] = row.channels if row else {}
    channels = {kind: {**default_channels(kind), **stored.get(kind, {})} for kind in Kind.values}
    quiet = None
    if row and row.quiet_start and row.quiet_end and row.quiet_timezone:
        quiet = QuietHours(row.quiet_start, row.quiet_end, row.quiet_timezone)
    return Preferences(channels, quiet)


def preferences_update(
    user: User,
    *,
    channels: dict[str, dict[str, bool]],
    quiet_hours: QuietHours | None,
) -> Preferences:
    """Replace the user's preferences; kinds left out of ``channels`` get the defaults."""
    Preference.objects.update_or_create(
        user=user,
        defaults={
            "channels": {
                kind: {c: bool(flags[c]) for c in OPTIONAL_CHANNELS}
                for kind, flags in channels.items()
            },
            "quiet_start": quiet_hours.start if quiet_hours else None,
            "quiet_end": quiet_hours.end if quiet_hours else None,
            "quiet_timezone": quiet_hours.timezone if quiet_hours else "",
        },
    )
    return preferences_of(user)
