"""What an erased account leaves in the notifications (``account_erase``, one of the
erasers ``privacy.erasure`` runs): nothing. Its notifications (and their outbox rows), its
webhooks, its push devices and its preferences are deleted."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from .models import Device, Notification, Preference, WebhookEndpoint


def account_erase(user: User) -> None:
    with transaction.atomic():
        Notification.objects.filter(user=user).delete()
        WebhookEndpoint.objects.filter(user=user).delete()
        Device.objects.filter(user=user).delete()
        Preference.objects.filter(user=user).delete()
