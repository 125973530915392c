"""Push devices of a user."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from . import errors
from .models import DeliveryStatus, Device

MAX_DEVICES = 20


def device_register(
    user: AbstractBaseUser, *, platform: str, token: str, name: str = ""
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
        existing.save(update_fields=["user", "name"])
        return existing, False
    if Device.objects.filter(user=user).count() >= MAX_DEVICES:
        raise errors.conflict(
            "DEVICE_LIMIT_REACHED", f"A user may register at most {MAX_DEVICES} devices."
        )
    return Device.objects.create(user=user, platform=platform, token=token, name=name), True


def device_delete(user: AbstractBaseUser, device_id: int) -> None:
    deleted, _ = Device.objects.filter(user=user, pk=device_id).delete()
    if not deleted:
        raise errors.not_found("device")
