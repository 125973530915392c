"""What every request with an Idempotency-Key shares: the header's form and its schema, the
refusals a key can get, the mark on a replayed answer, and how long a key is kept."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter

from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

HEADER = "Idempotency-Key"
# A stored key is at most 255 characters. Visible ASCII (RFC 9110's VCHAR) takes in UUIDs,
# ULIDs, base64 and a structured-field string's quotes, and keeps out spaces, control
# characters and anything that would compare differently after a Unicode normalisation.
KEY_MAX_LENGTH = 255
KEY_PATTERN = r"^[!-~]+$"  # "!" (0x21) to "~" (0x7e)
_KEY = re.compile(rf"[!-~]{{1,{KEY_MAX_LENGTH}}}")

# Sent with an answer given again for a retried key (the request was not applied again).
REPLAYED = {"Idempotent-Replayed": "true"}

# The header as the schema declares it, for every operation that takes it.
PARAMETER = OpenApiParameter(
    HEADER,
    {"type": "string", "minLength": 1, "maxLength": KEY_MAX_LENGTH, "pattern": KEY_PATTERN},
    OpenApiParameter.HEADER,
    description="A fresh key per request, to retry it safely: a retry with the same key and "
    "the same request gets the first answer again (with `Idempotent-Replayed: true`) and "
    "changes nothing. 1 to 255 visible ASCII characters (no spaces), such as a UUID. Any "
    "other key gets 400 `BAD_IDEMPOTENCY_KEY` and changes nothing.",
)


def key_check(key: str) -> None:
    """Refuse a key the service does not store: empty, too long, or not visible ASCII."""
    if not _KEY.fullmatch(key):
        raise ServiceError(
            Code.BAD_IDEMPOTENCY_KEY,
            _(
                "Idempotency-Key must be 1 to %(most)d visible ASCII characters (no spaces or "
                "control characters), such as a UUID."
            )
            % {"most": KEY_MAX_LENGTH},
        )


class KeyInFlight(ServiceError):
    """The key's first request is still running: retry in a second for its answer."""

    def __init__(self) -> None:
        super().__init__(
            Code.IDEMPOTENCY_KEY_IN_FLIGHT,
            _(
                "A request with this Idempotency-Key is still being processed; retry shortly "
                "to get its response."
            ),
        )
        self.wait = 1  # DRF sends it as Retry-After


def key_reused() -> ServiceError:
    return ServiceError(
        Code.IDEMPOTENCY_KEY_REUSED, _("This Idempotency-Key was used for a different request.")
    )


def oldest_kept() -> datetime:
    """Keys made at or before this are forgotten: a request under one is a new request."""
    return timezone.now() - timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)
