"""What an erased account leaves in the notifications (``account_erase``, one of the erasers
``privacy.erasure`` runs): nothing. Its notifications (and their outbox rows), its
webhooks, its push devices and its preferences are deleted, and so are the other players'
notices that name it (a friend request it sent, a friend request it accepted, its chat
message): the request, the friendship and the message they told of are gone with the
account."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from .models import Device, Kind, Notification, Preference, WebhookEndpoint

# The kinds whose ``data`` names another player by ``username``.
_NAMING = (Kind.FRIEND_REQUEST, Kind.FRIEND_ACCEPTED, Kind.CHAT_MESSAGE)


def account_erase(user: User) -> None:
    with transaction.atomic():
        Notification.objects.filter(user=user).delete()
        Notification.objects.filter(kind__in=_NAMING, data__username=user.get_username()).delete()
        WebhookEndpoint.objects.filter(user=user).delete()
        Device.objects.filter(user=user).delete()
        Preference.objects.filter(user=user).delete()
