"""Push devices of a user."""

from __future__ import annotations

import logging

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

from .models import DeliveryStatus, Device

logger = logging.getLogger(__name__)

MAX_DEVICES = 20


def device_register(
    user: User, *, platform: str, token: str, name: str = ""
) -> tuple[Device, bool]:
    """Register a device token; a token known under another account moves to this one.

    Returns the device and whether it is new.
    """
    existing = Device.objects.filter(platform=platform, token=token).first()
    if existing is not None:
        if existing.user_id != user.pk:
            # What was waiting for the previous account must not reach the new one.
            existing.deliveries.filter(status=DeliveryStatus.PENDING).update(
                status=DeliveryStatus.FAILED, last_error="The device moved to another account."
            )
        existing.user = user
        existing.name = name
        existing.active, existing.deactivated_at = True, None
        existing.save(update_fields=["user", "name", "active", "deactivated_at"])
        return existing, False
    if Device.objects.filter(user=user, active=True).count() >= MAX_DEVICES:
        raise ServiceError(
            Code.DEVICE_LIMIT_REACHED,
            _("A user may register at most %(limit)d devices.") % {"limit": MAX_DEVICES},
        )
    return Device.objects.create(user=user, platform=platform, token=token, name=name), True


def device_deactivate(device: Device, reason: str) -> bool:
    """Switch a device off after its push service disowned the token.

    Only while the row still holds that token: a device registered again meanwhile stays
    on. Returns whether it was switched off now.
    """
    switched = Device.objects.filter(pk=device.pk, token=device.token, active=True).update(
        active=False, deactivated_at=timezone.now()
    )
    if switched:
        logger.info("push device %s switched off: %s", device.pk, reason)
    return bool(switched)


def device_delete(user: User, device_id: int) -> None:
    deleted = Device.objects.filter(user=user, pk=device_id).delete()[0]
    if not deleted:
        raise ServiceError(Code.DEVICE_NOT_FOUND, _("No such device."))
