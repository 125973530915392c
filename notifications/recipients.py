"""What recording a notification needs to know of its user, in one query.

A user's preferences row (or none: the defaults) and whether they have any active webhook
endpoint or push device, so that the endpoints and devices are read only for the users
who have some. Most players have neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef

from .models import Device, Preference, WebhookEndpoint
from .preferences import Preferences, preferences_from


@dataclass(frozen=True)
class Recipient:
    row: Preference | None  # None: no row stored, the defaults apply
    has_webhooks: bool  # an active endpoint, whichever kinds it takes
    has_devices: bool  # an active push device

    @cached_property
    def preferences(self) -> Preferences:
        return preferences_from(self.row)


def recipient_of(user: User) -> Recipient:
    """The user's preferences row joined to their user row, and the two flags as
    ``EXISTS`` subqueries of that same query."""
    found = (
        User.objects.filter(pk=user.pk)
        .select_related("notification_preference")
        .only("pk", "notification_preference")
        .annotate(
            has_webhooks=Exists(WebhookEndpoint.objects.filter(user=OuterRef("pk"), active=True)),
            has_devices=Exists(Device.objects.filter(user=OuterRef("pk"), active=True)),
        )
        .first()
    )
    if found is None:  # deleted meanwhile: nothing stored, nowhere to deliver
        return Recipient(None, False, False)
    try:
        row: Preference | None = found.notification_preference
    except Preference.DoesNotExist:
        row = None
    return Recipient(row, found.has_webhooks, found.has_devices)
