"""Email through Django's mail backend (``EMAIL_BACKEND``)."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail

from notifications import messages
from notifications.models import Delivery

from .base import DeliveryResult


class EmailNotifier:
    def deliver(self, row: Delivery) -> DeliveryResult:
        notification = row.notification
        address = getattr(notification.user, "email", "")
        if not address:
            return DeliveryResult.failed("The user has no email address.", retry=False)
        with messages.in_recipients_language(notification):
            subject, text = messages.title(notification), messages.body(notification)
        try:
            send_mail(
                subject=subject,
                message=text,
                from_email=settings.DEFAULT_FROM_EMAIL,
                recipient_list=[address],
            )
        except OSError as exc:  # smtplib's errors are OSErrors
            return DeliveryResult.failed(f"{type(exc).__name__}: {exc}")
        return DeliveryResult.ok()
